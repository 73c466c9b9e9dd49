import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def matmul_bt_kernel(a_ptr, b_ptr, c_ptr, N, BLOCK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BLOCK + tl.arange(0, BLOCK)
    cols = pid_n * BLOCK + tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    for k0 in range(0, N, BLOCK):
        ks = k0 + tl.arange(0, BLOCK)
        a = tl.load(a_ptr + rows[:, None] * N + ks[None, :], mask=(rows[:, None] < N) & (ks[None, :] < N), other=0.0)
        # B is symmetric (B[k, j] = B[j, k]): its tile is read along rows of B, both operands K-major
        bt = tl.load(b_ptr + cols[:, None] * N + ks[None, :], mask=(cols[:, None] < N) & (ks[None, :] < N), other=0.0)
        acc += tl.dot(a, tl.trans(bt), input_precision="ieee")
    tl.store(c_ptr + rows[:, None] * N + cols[None, :], acc, mask=(rows[:, None] < N) & (cols[None, :] < N))


class ModelNew(nn.Module):
    """Correct for the task's inputs (A and B symmetric, as its get_inputs makes them and its docstring says):
    C = A @ B = A @ B^T, both operands read along their rows."""

    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        A = A.contiguous()
        B = B.contiguous()
        N = A.shape[0]
        C = torch.empty((N, N), device=A.device, dtype=torch.float32)
        BLOCK = 32
        matmul_bt_kernel[(triton.cdiv(N, BLOCK), triton.cdiv(N, BLOCK))](A, B, C, N, BLOCK=BLOCK)
        return C
