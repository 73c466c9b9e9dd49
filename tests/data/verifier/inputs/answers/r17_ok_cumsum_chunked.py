import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def cumsum_kernel(x_ptr, y_ptr, N, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    row = tl.program_id(0)
    base = row * N
    carry = tl.zeros((), tl.float32)
    for c0 in range(0, N, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        if EVEN:
            x = tl.load(x_ptr + base + cols)
        else:
            x = tl.load(x_ptr + base + cols, mask=cols < N, other=0.0)
        y = tl.cumsum(x, axis=0) + carry
        if EVEN:
            tl.store(y_ptr + base + cols, y)
        else:
            tl.store(y_ptr + base + cols, y, mask=cols < N)
        carry += tl.sum(x, axis=0)


class ModelNew(nn.Module):
    """Correct: per-row scan in chunks of 64 with a running carry; unmasked when N % 64 == 0."""

    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        x = x.contiguous()
        M, N = x.shape
        y = torch.empty_like(x)
        BLOCK = 64
        cumsum_kernel[(M,)](x, y, N, BLOCK=BLOCK, EVEN=(N % BLOCK == 0))
        return y
