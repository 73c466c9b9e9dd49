import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def affine_kernel(x_ptr, w_ptr, b_ptr, y_ptr, C, L, BLOCK: tl.constexpr):
    row = tl.program_id(0)  # one (batch, channel) row
    w = tl.load(w_ptr + row % C)  # float64
    b = tl.load(b_ptr + row % C)
    for s0 in range(0, L, BLOCK):
        o = s0 + tl.arange(0, BLOCK)
        m = o < L
        x = tl.load(x_ptr + row * L + o, mask=m, other=0.0)
        y = x.to(tl.float64) * w + b
        tl.store(y_ptr + row * L + o, y.to(tl.float32), mask=m)


class ModelNew(nn.Module):
    """CORRECT: y = x * scale + shift per channel, the affine kept in float64 (for accuracy) in its broadcast
    shape (1, C, 1) under its own names, read at every call."""

    def __init__(self, channels: int):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(1, channels, 1, dtype=torch.float64))
        self.shift = nn.Parameter(torch.zeros(1, channels, 1, dtype=torch.float64))

    def forward(self, x):
        x = x.contiguous()
        B, C, L = x.shape
        y = torch.empty_like(x)
        affine_kernel[(B * C,)](x, self.scale, self.shift, y, C, L, BLOCK=64)
        return y
