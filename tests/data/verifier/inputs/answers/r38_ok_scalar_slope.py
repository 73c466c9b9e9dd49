import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def leaky_kernel(x_ptr, y_ptr, n, slope, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    x = tl.load(x_ptr + o, mask=m, other=0.0)
    tl.store(y_ptr + o, tl.where(x >= 0, x, x * slope), mask=m)


class ModelNew(nn.Module):
    """CORRECT: LeakyReLU with the slope passed at call time."""

    def __init__(self):
        super().__init__()

    def forward(self, x, negative_slope):
        x = x.contiguous()
        y = torch.empty_like(x)
        leaky_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), negative_slope, BLOCK=1024)
        return y
