import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rev_cumsum_kernel(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    # read the row back to front (j = N - 1 - i), forward scan with a carry, write back to front
    row = tl.program_id(0)
    base = row * N
    carry = tl.zeros((), tl.float32)
    for i0 in range(0, N, BLOCK):
        i = i0 + tl.arange(0, BLOCK)
        j = N - 1 - i
        m = i < N
        x = tl.load(x_ptr + base + j, mask=m, other=0.0)
        y = tl.cumsum(x, axis=0) + carry
        tl.store(y_ptr + base + j, y, mask=m)
        carry += tl.sum(x, axis=0)


class ModelNew(nn.Module):
    """Reverse cumsum: reversed indexing and an inclusive forward scan."""

    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        x = x.contiguous()
        M, N = x.shape
        y = torch.empty_like(x)
        rev_cumsum_kernel[(M,)](x, y, N, BLOCK=64)
        return y
