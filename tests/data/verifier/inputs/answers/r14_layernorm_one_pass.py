import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def layernorm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0)
    # the bug: one-pass variance E[x^2] - E[x]^2 in fp32 (catastrophic cancellation once |mean| >> std)
    mean = tl.sum(x, axis=0) / n_cols
    var = tl.sum(x * x, axis=0) / n_cols - mean * mean
    w = tl.load(w_ptr + cols, mask=mask, other=0.0)
    b = tl.load(b_ptr + cols, mask=mask, other=0.0)
    y = (x - mean) / tl.sqrt(var + eps) * w + b
    tl.store(y_ptr + row * n_cols + cols, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, features: int):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape=(features,))

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        rows, cols = x.shape
        layernorm_kernel[(rows,)](x, self.ln.weight, self.ln.bias, y, cols, self.ln.eps,
                                  BLOCK=triton.next_power_of_2(cols))
        return y
