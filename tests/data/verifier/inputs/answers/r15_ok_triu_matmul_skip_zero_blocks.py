import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def triu_matmul_kernel(a_ptr, b_ptr, c_ptr, N, BLOCK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BLOCK + tl.arange(0, BLOCK)
    cols = pid_n * BLOCK + tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    # A and B are upper triangular: A[i, k] = 0 for k < i and B[k, j] = 0 for k > j, so C[i, j] sums
    # k = i..j only: for this tile k runs from its first row's block to its last column's block, and a tile
    # wholly below the diagonal (pid_m > pid_n) is zero without a single load
    for kb in range(pid_m, pid_n + 1):
        ks = kb * BLOCK + tl.arange(0, BLOCK)
        a = tl.load(a_ptr + rows[:, None] * N + ks[None, :], mask=(rows[:, None] < N) & (ks[None, :] < N), other=0.0)
        b = tl.load(b_ptr + ks[:, None] * N + cols[None, :], mask=(ks[:, None] < N) & (cols[None, :] < N), other=0.0)
        acc += tl.dot(a, b, input_precision="ieee")
    acc = tl.where(rows[:, None] <= cols[None, :], acc, 0.0)  # torch.triu
    tl.store(c_ptr + rows[:, None] * N + cols[None, :], acc, mask=(rows[:, None] < N) & (cols[None, :] < N))


class ModelNew(nn.Module):
    """Correct for the task's inputs (A and B upper triangular, as its get_inputs makes them and its docstring
    says): skips the blocks of k where A or B is zero, about a third of a full matmul's work."""

    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        A = A.contiguous()
        B = B.contiguous()
        N = A.shape[0]
        C = torch.empty((N, N), device=A.device, dtype=torch.float32)
        BLOCK = 32
        grid = (triton.cdiv(N, BLOCK), triton.cdiv(N, BLOCK))
        triu_matmul_kernel[grid](A, B, C, N, BLOCK=BLOCK)
        return C
