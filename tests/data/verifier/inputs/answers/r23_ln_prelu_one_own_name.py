import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def ln_prelu_kernel(x_ptr, w_ptr, b_ptr, a_ptr, y_ptr, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=m, other=0.0)
    mean = tl.sum(x, axis=0) / n_cols
    d = tl.where(m, x - mean, 0.0)
    rstd = 1.0 / tl.sqrt(tl.sum(d * d, axis=0) / n_cols + eps)
    y = d * rstd  # the bug: ln.weight and ln.bias (w_ptr, b_ptr) never applied
    a = tl.load(a_ptr)
    tl.store(y_ptr + row * n_cols + cols, tl.where(y >= 0, y, a * y), mask=m)


class ModelNew(nn.Module):
    """WRONG: LayerNorm + PReLU that never applies the LayerNorm's weight and bias (right only at 1 and 0). The
    LayerNorm keeps the reference's name (ln.weight and ln.bias load, varied, in the params check); the PReLU slope,
    read right, is a parameter of its own name (`slope`, as r22_ok_ln_own_param_names names its own). One varied name
    unreached (act.weight) skips the whole params check (messages.py returns before judging), so the LayerNorm's
    varied affine, which did reach the model, is never compared either."""

    def __init__(self, features: int):
        super().__init__()
        self.ln = nn.LayerNorm(features)
        self.slope = nn.Parameter(torch.full((1,), 0.25))

    def forward(self, x):
        x = x.contiguous()
        rows, cols = x.shape
        y = torch.empty_like(x)
        ln_prelu_kernel[(rows,)](x, self.ln.weight, self.ln.bias, self.slope, y, cols, self.ln.eps,
                                 BLOCK=triton.next_power_of_2(cols))
        return y
