import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def ln_kernel(x_ptr, y_ptr, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=m, other=0.0)
    mean = tl.sum(x, axis=0) / n_cols
    d = tl.where(m, x - mean, 0.0)
    rstd = 1.0 / tl.sqrt(tl.sum(d * d, axis=0) / n_cols + eps)
    tl.store(y_ptr + row * n_cols + cols, d * rstd, mask=m)


class ModelNew(nn.Module):
    """WRONG: LayerNorm that never applies the affine weight and bias (right only at 1 and 0). No parameter is
    renamed: the model keeps the reference's submodule `ln`, a LayerNorm with elementwise_affine=False, so ln.weight
    and ln.bias are unexpected keys and the params check is skipped (params_unreached)."""

    def __init__(self, features: int):
        super().__init__()
        self.ln = nn.LayerNorm(features, elementwise_affine=False)

    def forward(self, x):
        x = x.contiguous()
        rows, cols = x.shape
        y = torch.empty_like(x)
        ln_kernel[(rows,)](x, y, cols, self.ln.eps, BLOCK=triton.next_power_of_2(cols))
        return y
