import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def ln_kernel(x_ptr, w_ptr, b_ptr, y_ptr, n_cols, eps, BLOCK: tl.constexpr):
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
        if c0 + BLOCK <= n_cols:
            x = tl.load(base + cols)
            w = tl.load(w_ptr + cols)
            b = tl.load(b_ptr + cols)
            tl.store(y_ptr + row * n_cols + cols, (x - mean) * rstd * w + b)
        else:
            # the ragged tail chunk (the bug: no affine there)
            m = cols < n_cols
            x = tl.load(base + cols, mask=m, other=0.0)
            tl.store(y_ptr + row * n_cols + cols, (x - mean) * rstd, mask=m)


class ModelNew(nn.Module):
    """WRONG: LayerNorm whose ragged tail chunk (the last, partial block of 128 when the row length is not a
    multiple of 128) drops the affine weight and bias. Parameters keep the reference's names. The params check runs
    at the anchor shape only: where that is aligned, the tail path never meets a varied weight."""

    def __init__(self, features: int):
        super().__init__()
        self.ln = nn.LayerNorm(features)

    def forward(self, x):
        x = x.contiguous()
        rows, cols = x.shape
        y = torch.empty_like(x)
        ln_kernel[(rows,)](x, self.ln.weight, self.ln.bias, y, cols, self.ln.eps, BLOCK=128)
        return y
