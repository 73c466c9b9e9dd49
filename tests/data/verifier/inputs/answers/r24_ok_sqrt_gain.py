import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sqrt_gain_kernel(x_ptr, g_ptr, y_ptr, C, L, BLOCK: tl.constexpr):
    row = tl.program_id(0)  # one (batch, channel) row
    c = row % C
    s = tl.sqrt(tl.load(g_ptr + c))
    for s0 in range(0, L, BLOCK):
        o = s0 + tl.arange(0, BLOCK)
        m = o < L
        x = tl.load(x_ptr + row * L + o, mask=m, other=0.0)
        tl.store(y_ptr + row * L + o, x * s, mask=m)


class ModelNew(nn.Module):
    """Correct: y = x * sqrt(gain) per channel, gain read at every call."""

    def __init__(self, channels: int):
        super().__init__()
        self.gain = nn.Parameter(torch.ones(channels))

    def forward(self, x):
        x = x.contiguous()
        B, C, L = x.shape
        y = torch.empty_like(x)
        sqrt_gain_kernel[(B * C,)](x, self.gain, y, C, L, BLOCK=64)
        return y
