import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def logsoftmax_kernel(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = row * N
    m = tl.full((), float("-inf"), tl.float32)
    s = tl.zeros((), tl.float32)
    # online max and sum over chunks; the bug: no guard for a running max of -inf, so a row whose first
    # chunk is all -inf (a masked prefix) gets exp(-inf - -inf) = NaN
    for c0 in range(0, N, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + cols, mask=cols < N, other=float("-inf"))
        m_new = tl.maximum(m, tl.max(x, axis=0))
        s = s * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    lse = m + tl.log(s)
    for c0 in range(0, N, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + cols, mask=cols < N, other=0.0)
        tl.store(y_ptr + base + cols, x - lse, mask=cols < N)


class ModelNew(nn.Module):
    """Wrong: online log-softmax in chunks of 128 without the -inf guard."""

    def __init__(self, dim: int = 1):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        x = x.contiguous()
        M, N = x.shape
        y = torch.empty_like(x)
        logsoftmax_kernel[(M,)](x, y, N, BLOCK=128)
        return y
