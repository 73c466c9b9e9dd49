import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def excl_cumsum_kernel(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    # out[r, 0] = 0, out[r, j] = sum(x[r, :j]) for j = 1..N: output rows have N + 1 entries
    row = tl.program_id(0)
    carry = tl.zeros((), tl.float32)
    tl.store(y_ptr + row * (N + 1), 0.0)
    for c0 in range(0, N, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        m = cols < N
        x = tl.load(x_ptr + row * N + cols, mask=m, other=0.0)
        y = tl.cumsum(x, axis=0) + carry
        tl.store(y_ptr + row * (N + 1) + cols + 1, y, mask=m)
        carry += tl.sum(x, axis=0)


class ModelNew(nn.Module):
    """KernelBench 92 as written: a zero column prepended, the last batch row dropped ([:-1]), then cumsum."""

    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        x = x.contiguous()
        B, N = x.shape
        y = torch.empty((B - 1, N + 1), device=x.device, dtype=x.dtype)
        excl_cumsum_kernel[(B - 1,)](x, y, N, BLOCK=64)
        return y
