import torch
import triton
import triton.language as tl


@triton.jit
def softmax_online(out_ptr, in_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    m = -float("inf")
    d = 0.0
    # pass 1: running max and rescaled running sum
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(in_ptr + row * n_cols + cols, mask=cols < n_cols, other=-float("inf"))
        m_new = tl.maximum(m, tl.max(x, axis=0))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    # pass 2: normalise
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(in_ptr + row * n_cols + cols, mask=mask, other=-float("inf"))
        tl.store(out_ptr + row * n_cols + cols, tl.exp(x - m) / d, mask=mask)


def softmax(x):
    M, N = x.shape
    y = torch.empty_like(x)
    softmax_online[(M,)](y, x, N, BLOCK=1024)
    return y
