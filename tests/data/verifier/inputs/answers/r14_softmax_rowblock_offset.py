import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_rows_kernel(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    # the bug: the block's first row is pid, not pid * BM (right while one program covers every row)
    rows = pid + r
    mask = (rows[:, None] < M) & (c[None, :] < N)
    offs = rows[:, None] * N + c[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=float("-inf"))
    x = x - tl.max(x, axis=1)[:, None]
    e = tl.where(mask, tl.exp(x), 0.0)
    tl.store(y_ptr + offs, e / tl.sum(e, axis=1)[:, None], mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        M, N = x.shape
        y = torch.empty_like(x)
        BM = 8
        softmax_rows_kernel[(triton.cdiv(M, BM),)](x, y, M, N, BM=BM, BN=triton.next_power_of_2(N))
        return y
