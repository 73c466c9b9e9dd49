import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rmsnorm_kernel(x_ptr, w_ptr, y_ptr, N, eps, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    row = tl.program_id(0)
    base = row * N
    acc = tl.zeros((BLOCK,), tl.float32)
    for c0 in range(0, N, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        if EVEN:
            x = tl.load(x_ptr + base + cols)
        else:
            x = tl.load(x_ptr + base + cols, mask=cols < N, other=0.0)
        acc += x * x
    rstd = tl.math.rsqrt(tl.sum(acc, axis=0) / N + eps)
    for c0 in range(0, N, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        if EVEN:
            tl.store(y_ptr + base + cols, tl.load(x_ptr + base + cols) * rstd * tl.load(w_ptr + cols))
        else:
            m = cols < N
            x = tl.load(x_ptr + base + cols, mask=m, other=0.0)
            w = tl.load(w_ptr + cols, mask=m, other=0.0)
            tl.store(y_ptr + base + cols, x * rstd * w, mask=m)


class ModelNew(nn.Module):
    """Correct: RMSNorm with weight, x * rsqrt(mean(x^2) + eps) * w; unmasked where N % 128 == 0."""

    def __init__(self, features: int):
        super().__init__()
        self.norm = nn.RMSNorm(features, eps=1e-6)

    def forward(self, x):
        x = x.contiguous()
        M, N = x.shape
        y = torch.empty_like(x)
        BLOCK = 128
        rmsnorm_kernel[(M,)](x, self.norm.weight, y, N, self.norm.eps, BLOCK=BLOCK, EVEN=(N % BLOCK == 0))
        return y
