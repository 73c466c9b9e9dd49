import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def masked_linear_kernel(x_ptr, w_ptr, mi_ptr, mo_ptr, y_ptr, F, BLOCK: tl.constexpr):
    pid = tl.program_id(0)  # one (row, output feature)
    b = pid // F
    o = pid % F
    i = tl.arange(0, BLOCK)
    m = i < F
    x = tl.load(x_ptr + b * F + i, mask=m, other=0.0)
    keep_in = tl.load(mi_ptr + i, mask=m, other=0) != 0
    w = tl.load(w_ptr + o * F + i, mask=m, other=0.0)
    acc = tl.sum(tl.where(keep_in, x, 0.0) * w, axis=0)
    keep_out = tl.load(mo_ptr + o) != 0
    tl.store(y_ptr + pid, tl.where(keep_out, acc, 0.0))


class ModelNew(nn.Module):
    """CORRECT: y[b, o] = out_keep[o] * sum_i W[o, i] * in_keep[i] * x[b, i], both masks kept as uint8 buffers under
    names of the answer's own (`mask_out`, declared first, and `mask_in`) and read at every call. The harness must
    route the reference's `in_keep` to `mask_in` and `out_keep` to `mask_out`: both hold the same 1s at construction,
    share no last name with the reference's, and were declared in the other order."""

    def __init__(self, features: int):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(features, features) / features ** 0.5)
        self.register_buffer("mask_out", torch.ones(features, dtype=torch.uint8))
        self.register_buffer("mask_in", torch.ones(features, dtype=torch.uint8))

    def forward(self, x):
        x = x.contiguous()
        B, F = x.shape
        y = torch.empty((B, F), device=x.device, dtype=x.dtype)
        masked_linear_kernel[(B * F,)](x, self.weight, self.mask_in, self.mask_out, y, F,
                                       BLOCK=triton.next_power_of_2(F))
        return y
