import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def layernorm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = x_ptr + row * n_cols
    # pass 1: the mean, over chunks of BLOCK (a masked tail when n_cols % BLOCK != 0)
    s = tl.zeros((BLOCK,), dtype=tl.float32)
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        s += tl.load(base + cols, mask=cols < n_cols, other=0.0)
    mean = tl.sum(s, axis=0) / n_cols
    # pass 2: the variance around it (no cancellation)
    q = tl.zeros((BLOCK,), dtype=tl.float32)
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        m = cols < n_cols
        d = tl.where(m, tl.load(base + cols, mask=m, other=0.0) - mean, 0.0)
        q += d * d
    rstd = 1.0 / tl.sqrt(tl.sum(q, axis=0) / n_cols + eps)
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        m = cols < n_cols
        x = tl.load(base + cols, mask=m, other=0.0)
        w = tl.load(w_ptr + cols, mask=m, other=0.0)
        b = tl.load(b_ptr + cols, mask=m, other=0.0)
        tl.store(y_ptr + row * n_cols + cols, (x - mean) * rstd * w + b, mask=m)


class ModelNew(nn.Module):
    """Correct: two-pass LayerNorm with its own affine parameters, the shift (beta) declared before the scale
    (gamma), at the reference's constructor values 0 and 1."""

    def __init__(self, features: int):
        super().__init__()
        self.beta = nn.Parameter(torch.zeros(features))
        self.gamma = nn.Parameter(torch.ones(features))
        self.eps = 1e-5

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        rows, cols = x.shape
        layernorm_kernel[(rows,)](x, self.gamma, self.beta, y, cols, self.eps, BLOCK=128)
        return y
