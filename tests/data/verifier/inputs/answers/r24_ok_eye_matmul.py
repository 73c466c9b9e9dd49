import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_matmul_kernel(x_ptr, m_ptr, y_ptr, K, N, BLOCK_K: tl.constexpr, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    k = tl.arange(0, BLOCK_K)
    n = tl.arange(0, BLOCK_N)
    km = k < K
    nm = n < N
    x = tl.load(x_ptr + row * K + k, mask=km, other=0.0)
    w = tl.load(m_ptr + k[:, None] * N + n[None, :], mask=km[:, None] & nm[None, :], other=0.0)
    tl.store(y_ptr + row * N + n, tl.sum(x[:, None] * w, axis=0), mask=nm)


class ModelNew(nn.Module):
    """Correct: y = x @ M for a learnable square M (the identity at construction), a full product."""

    def __init__(self, features: int):
        super().__init__()
        self.M = nn.Parameter(torch.eye(features))

    def forward(self, x):
        x = x.contiguous()
        B, K = x.shape
        N = self.M.shape[1]
        y = torch.empty((B, N), device=x.device, dtype=x.dtype)
        row_matmul_kernel[(B,)](x, self.M, y, K, N, BLOCK_K=triton.next_power_of_2(K),
                                BLOCK_N=triton.next_power_of_2(N))
        return y
