import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def logsoftmax_kernel(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    # online log-softmax in two sweeps, zig-zag: the statistics sweep walks the row from its END, so the write
    # sweep (from the start) finds its first chunks still in cache
    row = tl.program_id(0)
    base = row * N
    offs = tl.arange(0, BLOCK)
    n_chunks = tl.cdiv(N, BLOCK)
    m = tl.full((), float("-inf"), tl.float32)
    s = tl.zeros((), tl.float32)
    for i in range(0, n_chunks):
        c0 = (n_chunks - 1 - i) * BLOCK
        cols = c0 + offs
        x = tl.load(x_ptr + base + cols, mask=cols < N, other=float("-inf"))
        m_new = tl.maximum(m, tl.max(x, axis=0))
        # BUG: no guard for m_new == -inf: a chunk that is -inf throughout, met while the running max is still
        # -inf (a row whose LAST block is masked, as in causal padding), makes exp(-inf - -inf) = NaN
        s = s * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    lse = m + tl.log(s)
    for c0 in range(0, N, BLOCK):
        cols = c0 + offs
        x = tl.load(x_ptr + base + cols, mask=cols < N, other=0.0)
        tl.store(y_ptr + base + cols, x - lse, mask=cols < N)


class ModelNew(nn.Module):
    """Online log-softmax, statistics walked back to front, unguarded."""

    def __init__(self, dim: int = 1):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        x = x.contiguous()
        M, N = x.shape
        y = torch.empty_like(x)
        logsoftmax_kernel[(M,)](x, y, N, BLOCK=128)
        return y
