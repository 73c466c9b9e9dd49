import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def online_softmax_kernel(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = row * N
    m = tl.max(tl.full((BLOCK,), float("-inf"), tl.float32), axis=0)
    s = tl.sum(tl.zeros((BLOCK,), tl.float32), axis=0)
    for c0 in range(0, N, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + cols, mask=cols < N, other=float("-inf"))
        m_new = tl.maximum(m, tl.max(x, axis=0))
        # the shift is 0 while everything so far is -inf: exp(-inf - 0) = 0, no NaN
        shift = tl.where(m_new == float("-inf"), 0.0, m_new)
        s = s * tl.exp(m - shift) + tl.sum(tl.exp(x - shift), axis=0)
        m = m_new
    for c0 in range(0, N, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + cols, mask=cols < N, other=float("-inf"))
        tl.store(y_ptr + base + cols, tl.exp(x - m) / s, mask=cols < N)


class ModelNew(nn.Module):
    """Correct: online (one read for the statistics) softmax over chunks of 32 with masked tails, safe
    where a whole chunk is -inf."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        M, N = x.shape
        y = torch.empty_like(x)
        online_softmax_kernel[(M,)](x, y, N, BLOCK=32)
        return y
