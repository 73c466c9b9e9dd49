import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def outer_kernel(x_ptr, y_ptr, o_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    x = tl.load(x_ptr + rm, mask=rm < M - 1, other=0.0)
    y = tl.load(y_ptr + rn, mask=rn < N, other=0.0)
    o = x[:, None] * y[None, :]
    tl.store(o_ptr + rm[:, None] * N + rn[None, :], o, mask=(rm[:, None] < M) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        M, N = x.shape[0], y.shape[0]
        out = torch.empty((M, N), device=x.device, dtype=x.dtype)
        outer_kernel[(triton.cdiv(M, 64), triton.cdiv(N, 1024))](x, y, out, M, N, BM=64, BN=1024)
        return out
