import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                  EVEN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        ks = k0 + rk
        if EVEN:
            a = tl.load(a_ptr + rm[:, None] * K + ks[None, :], mask=ks[None, :] < K, other=0.0)
            b = tl.load(b_ptr + ks[:, None] * N + rn[None, :], mask=ks[:, None] < K, other=0.0)
        else:
            a = tl.load(a_ptr + rm[:, None] * K + ks[None, :], mask=(rm[:, None] < M) & (ks[None, :] < K), other=0.0)
            b = tl.load(b_ptr + ks[:, None] * N + rn[None, :], mask=(ks[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b, input_precision="ieee")
    if EVEN:
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)
    else:
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


class ModelNew(nn.Module):
    """Wrong: a whole-tile fast path chosen on N % 16 == 0 alone: its grid is M // 16 x N // 16 with no M/N masks,
    so where M % 16 != 0 the last M % 16 rows of C are never written (torch.empty's garbage)."""

    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        a = a.contiguous()
        b = b.contiguous()
        M, K = a.shape
        N = b.shape[1]
        c = torch.empty((M, N), device=a.device, dtype=torch.float32)
        BM, BN = 16, 16
        if N % BN == 0:
            grid = (M // BM, N // BN)  # the bug: the tiles were taken to be whole in M as well
            matmul_kernel[grid](a, b, c, M, N, K, BM=BM, BN=BN, BK=16, EVEN=True)
        else:
            grid = (triton.cdiv(M, BM), triton.cdiv(N, BN))
            matmul_kernel[grid](a, b, c, M, N, K, BM=BM, BN=BN, BK=16, EVEN=False)
        return c
