import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def leaky_rows_kernel(x_ptr, y_ptr, N, slope, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    for c0 in range(0, N, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        m = cols < N
        x = tl.load(x_ptr + row * N + cols, mask=m, other=0.0)
        tl.store(y_ptr + row * N + cols, tl.where(x >= 0, x, x * slope), mask=m)


@triton.jit
def leaky_pairs_kernel(x_ptr, y_ptr, N, slope, BLOCK: tl.constexpr):
    # even rows: processed as pairs (a float2-style path); the slope was lost here
    row = tl.program_id(0)
    for c0 in range(0, N, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        m = cols < N
        x = tl.load(x_ptr + row * N + cols, mask=m, other=0.0)
        tl.store(y_ptr + row * N + cols, tl.maximum(x, 0.0), mask=m)


class ModelNew(nn.Module):
    """WRONG: LeakyReLU whose path for even row lengths drops the slope (ReLU). The task's row length is odd (1001),
    and every derived shape keeps an odd size odd, so the even path never runs in a check."""

    def __init__(self, negative_slope: float = 0.01):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        N = x.shape[-1]
        rows = x.numel() // N
        if N % 2 == 0:
            leaky_pairs_kernel[(rows,)](x, y, N, self.negative_slope, BLOCK=256)
        else:
            leaky_rows_kernel[(rows,)](x, y, N, self.negative_slope, BLOCK=256)
        return y
