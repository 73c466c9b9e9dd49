import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def tanh_shift_kernel(x_ptr, r_ptr, y_ptr, C, L, BLOCK: tl.constexpr):
    row = tl.program_id(0)  # one (batch, channel) row
    r = tl.load(r_ptr + row % C)
    z = 0.5 * tl.log((1.0 + r) / (1.0 - r))  # atanh
    for s0 in range(0, L, BLOCK):
        o = s0 + tl.arange(0, BLOCK)
        m = o < L
        x = tl.load(x_ptr + row * L + o, mask=m, other=0.0)
        e = tl.exp(-2.0 * tl.abs(x))
        t = (1.0 - e) / (1.0 + e)
        t = tl.where(x < 0, -t, t)
        tl.store(y_ptr + row * L + o, t + z, mask=m)


class ModelNew(nn.Module):
    """CORRECT: y = tanh(x) + atanh(rho) per channel, rho read at every call (atanh as a log ratio)."""

    def __init__(self, channels: int):
        super().__init__()
        self.rho = nn.Parameter(torch.zeros(channels))

    def forward(self, x):
        x = x.contiguous()
        B, C, L = x.shape
        y = torch.empty_like(x)
        tanh_shift_kernel[(B * C,)](x, self.rho, y, C, L, BLOCK=64)
        return y
