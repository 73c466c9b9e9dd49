import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rmsnorm_dim1_kernel(x_ptr, y_ptr, F, D, eps, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    # one program per (batch, block of BLOCK positions of d1 x d2); the features lie D apart
    b = tl.program_id(0)
    pos = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    m = pos < D
    base = b * F * D
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for f in range(0, F):
        if EVEN:
            x = tl.load(x_ptr + base + f * D + pos)
        else:
            x = tl.load(x_ptr + base + f * D + pos, mask=m, other=0.0)
        acc += x * x
    rstd = 1.0 / tl.sqrt(acc / F + eps)
    for f in range(0, F):
        if EVEN:
            x = tl.load(x_ptr + base + f * D + pos)
            tl.store(y_ptr + base + f * D + pos, x * rstd)
        else:
            x = tl.load(x_ptr + base + f * D + pos, mask=m, other=0.0)
            tl.store(y_ptr + base + f * D + pos, x * rstd, mask=m)


class ModelNew(nn.Module):
    """Correct: RMS over dim 1 in fp32, eps inside the square root; an unmasked path where D % BLOCK == 0."""

    def __init__(self, num_features: int, eps: float = 1e-5):
        super().__init__()
        self.num_features = num_features
        self.eps = eps

    def forward(self, x):
        x = x.contiguous()
        B, F = x.shape[0], x.shape[1]
        D = x.numel() // (B * F)
        y = torch.empty_like(x)
        BLOCK = 32
        rmsnorm_dim1_kernel[(B, triton.cdiv(D, BLOCK))](x, y, F, D, self.eps, BLOCK=BLOCK, EVEN=(D % BLOCK == 0))
        return y
