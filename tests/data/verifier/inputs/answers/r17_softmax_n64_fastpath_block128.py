import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, N, BLOCK: tl.constexpr, ALIGNED: tl.constexpr):
    row = tl.program_id(0)
    base = row * N
    m = tl.full((), float("-inf"), tl.float32)
    s = tl.zeros((), tl.float32)
    for c0 in range(0, N, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        if ALIGNED:
            x = tl.load(x_ptr + base + cols)
        else:
            x = tl.load(x_ptr + base + cols, mask=cols < N, other=float("-inf"))
        m = tl.maximum(m, tl.max(x, axis=0))
    for c0 in range(0, N, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        if ALIGNED:
            x = tl.load(x_ptr + base + cols)
        else:
            x = tl.load(x_ptr + base + cols, mask=cols < N, other=float("-inf"))
        s += tl.sum(tl.exp(x - m), axis=0)
    for c0 in range(0, N, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        if ALIGNED:
            tl.store(y_ptr + base + cols, tl.exp(tl.load(x_ptr + base + cols) - m) / s)
        else:
            x = tl.load(x_ptr + base + cols, mask=cols < N, other=float("-inf"))
            tl.store(y_ptr + base + cols, tl.exp(x - m) / s, mask=cols < N)


class ModelNew(nn.Module):
    """Wrong: the unmasked path is chosen on N % 64 == 0 (rows of whole 64-float vectors) but walks blocks of 128:
    for N = 192, 320, ... the last block runs 64 columns into the next row (and past the end of the tensor)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        M, N = x.shape
        y = torch.empty_like(x)
        softmax_kernel[(M,)](x, y, N, BLOCK=128, ALIGNED=(N % 64 == 0))
        return y
