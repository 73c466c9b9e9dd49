import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, N, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    row = tl.program_id(0)
    base = row * N
    m = tl.full((), float("-inf"), tl.float32)
    s = tl.zeros((), tl.float32)
    for c0 in range(0, N, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        if EVEN:
            x = tl.load(x_ptr + base + cols)
        else:
            x = tl.load(x_ptr + base + cols, mask=cols < N, other=float("-inf"))
        m_new = tl.maximum(m, tl.max(x, axis=0))
        m_safe = tl.where(m_new == float("-inf"), 0.0, m_new)
        s = s * tl.exp(m - m_safe) + tl.sum(tl.exp(x - m_safe), axis=0)
        m = m_new
    for c0 in range(0, N, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        if EVEN:
            tl.store(y_ptr + base + cols, tl.exp(tl.load(x_ptr + base + cols) - m) / s)
        else:
            x = tl.load(x_ptr + base + cols, mask=cols < N, other=float("-inf"))
            tl.store(y_ptr + base + cols, tl.exp(x - m) / s, mask=cols < N)


class ModelNew(nn.Module):
    """Correct: online softmax in chunks of 64 with the -inf guard; unmasked only where N % 64 == 0."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        M, N = x.shape
        y = torch.empty_like(x)
        BLOCK = 64
        softmax_kernel[(M,)](x, y, N, BLOCK=BLOCK, EVEN=(N % BLOCK == 0))
        return y
