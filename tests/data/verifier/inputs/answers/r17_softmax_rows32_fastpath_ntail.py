import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_rows_tile_kernel(x_ptr, y_ptr, N, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    # fast path, chosen when M % ROWS == 0: ROWS rows per program, no masks
    # the bug: full tiles in M were taken to mean full tiles in N too; columns are walked in whole BLOCKs unmasked,
    # so for N % BLOCK != 0 the last chunk reads the next rows (and the row's statistics include them)
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    m = tl.full((ROWS,), float("-inf"), tl.float32)
    for c0 in range(0, N, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        m = tl.maximum(m, tl.max(tl.load(x_ptr + rows[:, None] * N + cols[None, :]), axis=1))
    s = tl.zeros((ROWS,), tl.float32)
    for c0 in range(0, N, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        s += tl.sum(tl.exp(tl.load(x_ptr + rows[:, None] * N + cols[None, :]) - m[:, None]), axis=1)
    for c0 in range(0, N, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + rows[:, None] * N + cols[None, :])
        tl.store(y_ptr + rows[:, None] * N + cols[None, :], tl.exp(x - m[:, None]) / s[:, None],
                 mask=cols[None, :] < N)


@triton.jit
def softmax_row_kernel(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = row * N
    m = tl.full((), float("-inf"), tl.float32)
    for c0 in range(0, N, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        m = tl.maximum(m, tl.max(tl.load(x_ptr + base + cols, mask=cols < N, other=float("-inf")), axis=0))
    s = tl.zeros((), tl.float32)
    for c0 in range(0, N, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        s += tl.sum(tl.exp(tl.load(x_ptr + base + cols, mask=cols < N, other=float("-inf")) - m), axis=0)
    for c0 in range(0, N, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + cols, mask=cols < N, other=float("-inf"))
        tl.store(y_ptr + base + cols, tl.exp(x - m) / s, mask=cols < N)


class ModelNew(nn.Module):
    """Wrong: a 32-rows-per-program fast path when M % 32 == 0 that leaves N's tail unmasked."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        M, N = x.shape
        y = torch.empty_like(x)
        ROWS = 32
        if M % ROWS == 0:
            softmax_rows_tile_kernel[(M // ROWS,)](x, y, N, ROWS=ROWS, BLOCK=64)
        else:
            softmax_row_kernel[(M,)](x, y, N, BLOCK=64)
        return y
