import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def lse_dim1_kernel(x_ptr, y_ptr, C, L, BLOCK_C: tl.constexpr, BLOCK_L: tl.constexpr):
    b = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_L + tl.arange(0, BLOCK_L)
    cm = cols < L
    base = b * C * L
    m = tl.full((BLOCK_L,), float("-inf"), tl.float32)
    s = tl.zeros((BLOCK_L,), tl.float32)
    for c0 in range(0, C, BLOCK_C):
        ch = c0 + tl.arange(0, BLOCK_C)
        msk = (ch[:, None] < C) & cm[None, :]
        x = tl.load(x_ptr + base + ch[:, None] * L + cols[None, :], mask=msk, other=float("-inf"))
        m_new = tl.maximum(m, tl.max(x, axis=0))
        m_safe = tl.where(m_new == float("-inf"), 0.0, m_new)
        s = s * tl.exp(m - m_safe) + tl.sum(tl.exp(x - m_safe[None, :]), axis=0)
        m = m_new
    tl.store(y_ptr + b * L + cols, m + tl.log(s), mask=cm)


class ModelNew(nn.Module):
    """Correct: logsumexp down the channels, online in chunks of 32 channels, -inf guarded."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        B, C, L = x.shape
        y = torch.empty((B, L), device=x.device, dtype=x.dtype)
        BLOCK_L = 32
        lse_dim1_kernel[(B, triton.cdiv(L, BLOCK_L))](x, y, C, L, BLOCK_C=32, BLOCK_L=BLOCK_L)
        return y
