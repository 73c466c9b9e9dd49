import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def cumsum_dot_kernel(x_ptr, y_ptr, M, N, BM: tl.constexpr, BLOCK: tl.constexpr):
    # BM rows per program; each chunk's inclusive prefix as x @ U with U[k, j] = (k <= j), on the tensor cores
    pid = tl.program_id(0)
    rows = pid * BM + tl.arange(0, BM)
    k = tl.arange(0, BLOCK)
    tri = (k[:, None] <= k[None, :]).to(tl.float32)
    carry = tl.zeros((BM,), tl.float32)
    for c0 in range(0, N, BLOCK):
        cols = c0 + k
        msk = (rows[:, None] < M) & (cols[None, :] < N)
        x = tl.load(x_ptr + rows[:, None] * N + cols[None, :], mask=msk, other=0.0)
        y = tl.dot(x, tri, input_precision="ieee") + carry[:, None]
        tl.store(y_ptr + rows[:, None] * N + cols[None, :], y, mask=msk)
        carry += tl.sum(x, axis=1)


class ModelNew(nn.Module):
    """Inclusive cumsum along dim 1 with a triangular-ones matmul per chunk of 32 (fp32, ieee)."""

    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        x = x.contiguous()
        M, N = x.shape
        y = torch.empty_like(x)
        BM = 16
        cumsum_dot_kernel[(triton.cdiv(M, BM),)](x, y, M, N, BM=BM, BLOCK=32)
        return y
