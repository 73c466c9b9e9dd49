import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def adaln_kernel(x_ptr, shift_ptr, scale_ptr, y_ptr, T, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)  # a (batch, token) row
    b = row // T
    cols = tl.arange(0, BLOCK)
    m = cols < N
    x = tl.load(x_ptr + row * N + cols, mask=m, other=0.0)
    mean = tl.sum(x, axis=0) / N
    d = tl.where(m, x - mean, 0.0)
    rstd = 1.0 / tl.sqrt(tl.sum(d * d, axis=0) / N + eps)
    sc = tl.load(scale_ptr + b * N + cols, mask=m, other=0.0)
    sh = tl.load(shift_ptr + b * N + cols, mask=m, other=0.0)
    tl.store(y_ptr + row * N + cols, d * rstd * (1.0 + sc) + sh, mask=m)


class ModelNew(nn.Module):
    """Wrong: adaLN modulation with nn.LayerNorm's default eps (1e-5) where the task's layer_norm uses 1e-6."""

    def __init__(self, hidden: int):
        super().__init__()
        self.hidden = hidden
        self.eps = 1e-5  # the bug: LayerNorm's default, not the 1e-6 the task passes

    def forward(self, x, shift, scale):
        x = x.contiguous()
        shift = shift.contiguous()
        scale = scale.contiguous()
        B, T, N = x.shape
        y = torch.empty_like(x)
        adaln_kernel[(B * T,)](x, shift, scale, y, T, N, self.eps, BLOCK=triton.next_power_of_2(N))
        return y
