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
        # the bug: no guard for m_new == -inf; a chunk of 128 that is -inf throughout (a masked prefix of 128
        # or more, e.g. a left-padded row of 256) gives exp(-inf - (-inf)) = NaN, which poisons the whole row
        s = s * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
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
        online_softmax_kernel[(M,)](x, y, N, BLOCK=128)
        return y
