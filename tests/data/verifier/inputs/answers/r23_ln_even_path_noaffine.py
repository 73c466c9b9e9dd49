import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def ln_kernel(x_ptr, w_ptr, b_ptr, y_ptr, n_cols, eps, EVEN: tl.constexpr, BLOCK: tl.constexpr):
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
        if EVEN:
            # the aligned fast path: no masks (and, the bug, no affine)
            x = tl.load(base + cols)
            tl.store(y_ptr + row * n_cols + cols, (x - mean) * rstd)
        else:
            m = cols < n_cols
            x = tl.load(base + cols, mask=m, other=0.0)
            w = tl.load(w_ptr + cols, mask=m, other=0.0)
            b = tl.load(b_ptr + cols, mask=m, other=0.0)
            tl.store(y_ptr + row * n_cols + cols, (x - mean) * rstd * w + b, mask=m)


class ModelNew(nn.Module):
    """WRONG: LayerNorm whose unmasked fast path (row length a multiple of 128) drops the affine weight and bias;
    the masked path applies them. Parameters keep the reference's names. The params check runs at the anchor
    shape only (a derived tail shape where there is one), the masked path; at the task's own aligned shape every
    check has weight 1 and bias 0."""

    def __init__(self, features: int):
        super().__init__()
        self.ln = nn.LayerNorm(features)

    def forward(self, x):
        x = x.contiguous()
        rows, cols = x.shape
        y = torch.empty_like(x)
        ln_kernel[(rows,)](x, self.ln.weight, self.ln.bias, y, cols, self.ln.eps, EVEN=cols % 128 == 0, BLOCK=128)
        return y
