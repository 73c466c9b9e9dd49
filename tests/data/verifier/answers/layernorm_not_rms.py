import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def wrong_norm(x_ptr, w_ptr, y_ptr, N, eps, BLOCK_N: tl.constexpr):
    # subtracts the mean: LayerNorm, not RMSNorm (the seed's classic subtle bug)
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(x_ptr + row * N + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    xc = tl.where(mask, x - mean, 0.0)
    rstd = tl.rsqrt(tl.sum(xc * xc, axis=0) / N + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * N + cols, (xc * rstd * w).to(tl.float16), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(dim, dtype=torch.float16))
        self.eps = eps

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        M, N = x.shape
        wrong_norm[(M,)](x, self.weight, y, N, self.eps, BLOCK_N=triton.next_power_of_2(N))
        return y
