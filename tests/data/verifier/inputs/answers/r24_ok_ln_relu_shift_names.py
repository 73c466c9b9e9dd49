import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def ln_relu_shift_kernel(x_ptr, g_ptr, be_ptr, s_ptr, y_ptr, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=m, other=0.0)
    mean = tl.sum(x, axis=0) / n_cols
    d = tl.where(m, x - mean, 0.0)
    rstd = 1.0 / tl.sqrt(tl.sum(d * d, axis=0) / n_cols + eps)
    g = tl.load(g_ptr + cols, mask=m, other=0.0)
    be = tl.load(be_ptr + cols, mask=m, other=0.0)
    s = tl.load(s_ptr + cols, mask=m, other=0.0)
    y = tl.maximum(d * rstd * g + be, 0.0) + s
    tl.store(y_ptr + row * n_cols + cols, y, mask=m)


class ModelNew(nn.Module):
    """Correct: LayerNorm + ReLU + shift in one kernel; the LayerNorm's affine is gamma and beta, the output shift
    is the model's bias (names of its own, at the reference's constructor values 1, 0 and 0)."""

    def __init__(self, features: int):
        super().__init__()
        self.gamma = nn.Parameter(torch.ones(features))
        self.beta = nn.Parameter(torch.zeros(features))
        self.bias = nn.Parameter(torch.zeros(features))
        self.eps = 1e-5

    def forward(self, x):
        x = x.contiguous()
        rows, cols = x.shape
        y = torch.empty_like(x)
        ln_relu_shift_kernel[(rows,)](x, self.gamma, self.beta, self.bias, y, cols, self.eps,
                                      BLOCK=triton.next_power_of_2(cols))
        return y
