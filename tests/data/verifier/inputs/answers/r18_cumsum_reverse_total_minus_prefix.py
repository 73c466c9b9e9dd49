import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rev_cumsum_kernel(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    # suffix sum as (row total) - (inclusive prefix) + x: one forward scan, no reversal
    row = tl.program_id(0)
    base = row * N
    total = tl.zeros((), tl.float32)
    for c0 in range(0, N, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        total += tl.sum(tl.load(x_ptr + base + cols, mask=cols < N, other=0.0), axis=0)
    carry = tl.zeros((), tl.float32)
    for c0 in range(0, N, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + cols, mask=cols < N, other=0.0)
        prefix = carry + tl.cumsum(x, axis=0)
        tl.store(y_ptr + base + cols, total - prefix + x, mask=cols < N)
        carry += tl.sum(x, axis=0)


class ModelNew(nn.Module):
    """Reverse cumsum along dim 1 as total - prefix + x."""

    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        x = x.contiguous()
        M, N = x.shape
        y = torch.empty_like(x)
        rev_cumsum_kernel[(M,)](x, y, N, BLOCK=128)
        return y
