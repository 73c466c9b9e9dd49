import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_rows_kernel(x_ptr, y_ptr, N, BLOCK: tl.constexpr, VEC4: tl.constexpr):
    row = tl.program_id(0)
    base = row * N
    if VEC4:
        # fast path for rows whose length is a multiple of 4 (16-byte aligned rows: vector loads, no masks)
        # the bug: it walks whole blocks of BLOCK only, as if N % BLOCK == 0 followed from N % 4 == 0: the
        # last N % BLOCK columns (N = 1000: 104 of them) are left out of the statistics and never written
        n_full = (N // BLOCK) * BLOCK
        m = tl.max(tl.full((BLOCK,), float("-inf"), tl.float32), axis=0)
        for c0 in range(0, n_full, BLOCK):
            m = tl.maximum(m, tl.max(tl.load(x_ptr + base + c0 + tl.arange(0, BLOCK)), axis=0))
        s = tl.sum(tl.zeros((BLOCK,), tl.float32), axis=0)
        for c0 in range(0, n_full, BLOCK):
            s += tl.sum(tl.exp(tl.load(x_ptr + base + c0 + tl.arange(0, BLOCK)) - m), axis=0)
        for c0 in range(0, n_full, BLOCK):
            cols = c0 + tl.arange(0, BLOCK)
            tl.store(y_ptr + base + cols, tl.exp(tl.load(x_ptr + base + cols) - m) / s)
    else:
        m = tl.max(tl.full((BLOCK,), float("-inf"), tl.float32), axis=0)
        for c0 in range(0, N, BLOCK):
            cols = c0 + tl.arange(0, BLOCK)
            m = tl.maximum(m, tl.max(tl.load(x_ptr + base + cols, mask=cols < N, other=float("-inf")), axis=0))
        s = tl.sum(tl.zeros((BLOCK,), tl.float32), axis=0)
        for c0 in range(0, N, BLOCK):
            cols = c0 + tl.arange(0, BLOCK)
            x = tl.load(x_ptr + base + cols, mask=cols < N, other=float("-inf"))
            s += tl.sum(tl.exp(x - m), axis=0)
        for c0 in range(0, N, BLOCK):
            cols = c0 + tl.arange(0, BLOCK)
            x = tl.load(x_ptr + base + cols, mask=cols < N, other=float("-inf"))
            tl.store(y_ptr + base + cols, tl.exp(x - m) / s, mask=cols < N)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        M, N = x.shape
        y = torch.empty_like(x)
        softmax_rows_kernel[(M,)](x, y, N, BLOCK=128, VEC4=(N % 4 == 0))
        return y
