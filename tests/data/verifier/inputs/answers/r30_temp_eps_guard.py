import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def temp_kernel(x_ptr, t_ptr, y_ptr, C, L, BLOCK: tl.constexpr):
    row = tl.program_id(0)  # one (batch, channel) row
    c = row % C
    t = tl.load(t_ptr + c)
    t = tl.where(tl.abs(t) < 1e-4, 1e-4, t)  # "safe" division: no blow-up for a vanishing temperature
    r = 1.0 / t
    for s0 in range(0, L, BLOCK):
        o = s0 + tl.arange(0, BLOCK)
        m = o < L
        x = tl.load(x_ptr + row * L + o, mask=m, other=0.0)
        tl.store(y_ptr + row * L + o, x * r, mask=m)


class ModelNew(nn.Module):
    """WRONG: x / temp with the temperature guarded to 1e-4 in magnitude (and a negative one under it made +1e-4): a
    calibrated checkpoint with a temperature of 5e-5 gets half (or minus half) the reference's output. The params
    draws never put a magnitude under 1e-3 * max(|v|, 1) but exact zeros (params_flip, whose reference is then
    not finite and the set dropped)."""

    def __init__(self, channels: int):
        super().__init__()
        self.temp = nn.Parameter(torch.ones(channels))

    def forward(self, x):
        x = x.contiguous()
        B, C, L = x.shape
        y = torch.empty_like(x)
        temp_kernel[(B * C,)](x, self.temp, y, C, L, BLOCK=64)
        return y
