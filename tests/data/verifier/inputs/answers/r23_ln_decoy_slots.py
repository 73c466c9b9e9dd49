import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def layernorm_noaffine_kernel(x_ptr, y_ptr, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = x_ptr + row * n_cols
    s = tl.zeros((BLOCK,), dtype=tl.float32)
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        s += tl.load(base + cols, mask=cols < n_cols, other=0.0)
    mean = tl.sum(s, axis=0) / n_cols
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
        tl.store(y_ptr + row * n_cols + cols, (x - mean) * rstd, mask=m)


class ModelNew(nn.Module):
    """WRONG, against Child.give_varied (mine, after f5d0ff5): no LayerNorm of the reference's names, and two decoy
    parameters of the affine's shape that the forward never reads, so that a varied value the load cannot give by
    name lands in a slot that changes nothing; the kernel has no affine. give_varied fills the decoys and the check
    runs all the same: the output must differ from the reference's with its weight and bias varied."""

    def __init__(self, features: int):
        super().__init__()
        self.decoy_a = nn.Parameter(torch.ones(features))
        self.decoy_b = nn.Parameter(torch.zeros(features))
        self.eps = 1e-5

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        rows, cols = x.shape
        layernorm_noaffine_kernel[(rows,)](x, y, cols, self.eps, BLOCK=128)
        return y
