import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bias_add_kernel(x_ptr, b_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr, EVEN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    offs = rm[:, None] * N + rn[None, :]
    if EVEN:
        x = tl.load(x_ptr + offs)
        b = tl.load(b_ptr + rn)
        tl.store(y_ptr + offs, x + b[None, :])
    else:
        mask = (rm[:, None] < M) & (rn[None, :] < N)
        x = tl.load(x_ptr + offs, mask=mask, other=0.0)
        b = tl.load(b_ptr + rn, mask=rn < N, other=0.0)
        tl.store(y_ptr + offs, x + b[None, :], mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, bias):
        x = x.contiguous()
        bias = bias.contiguous()
        M, N = x.shape
        y = torch.zeros_like(x)
        BM, BN = 16, 32
        if N % BN == 0:
            # the bug: the aligned fast path takes "aligned" from N alone; its grid floors M, so the last
            # M % 16 rows are never written when M is not a multiple of 16 but N is
            bias_add_kernel[(M // BM, N // BN)](x, bias, y, M, N, BM=BM, BN=BN, EVEN=True)
        else:
            bias_add_kernel[(triton.cdiv(M, BM), triton.cdiv(N, BN))](x, bias, y, M, N, BM=BM, BN=BN, EVEN=False)
        return y
