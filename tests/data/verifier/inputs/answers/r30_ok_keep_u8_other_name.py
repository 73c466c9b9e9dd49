import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sig_scale_kernel(x_ptr, k_ptr, w_ptr, y_ptr, C, L, BLOCK: tl.constexpr):
    row = tl.program_id(0)  # one (batch, channel) row
    c = row % C
    w = tl.load(w_ptr + c)
    keep = tl.load(k_ptr + c) != 0
    for s0 in range(0, L, BLOCK):
        o = s0 + tl.arange(0, BLOCK)
        m = o < L
        x = tl.load(x_ptr + row * L + o, mask=m, other=0.0)
        y = w / (1.0 + tl.exp(-x))
        tl.store(y_ptr + row * L + o, tl.where(keep, y, 0.0), mask=m)


class ModelNew(nn.Module):
    """CORRECT: where(keep[c], sigmoid(x) * weight[c], 0), the mask kept as a uint8 buffer `keep_u8` (the usual
    Triton idiom: a byte per flag) and read at every call; the harness must route the reference's bool `keep` to it,
    as it routes an int64 permutation to an int32 `order` (r29_ok_perm_other_name)."""

    def __init__(self, channels: int):
        super().__init__()
        self.register_buffer("keep_u8", torch.ones(channels, dtype=torch.uint8))
        self.weight = nn.Parameter(torch.ones(channels))

    def forward(self, x):
        x = x.contiguous()
        B, C, L = x.shape
        y = torch.empty_like(x)
        sig_scale_kernel[(B * C,)](x, self.keep_u8, self.weight, y, C, L, BLOCK=64)
        return y
