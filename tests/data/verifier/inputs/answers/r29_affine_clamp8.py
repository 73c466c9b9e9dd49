import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def affine_kernel(x_ptr, w_ptr, b_ptr, y_ptr, C, L, BLOCK: tl.constexpr):
    row = tl.program_id(0)  # one (batch, channel) row
    w = tl.load(w_ptr + row % C)
    b = tl.load(b_ptr + row % C)
    # "stability": the affine saturated at +-8 (a checkpoint's gain 12 is cut to 8)
    w = tl.minimum(tl.maximum(w, -8.0), 8.0)
    b = tl.minimum(tl.maximum(b, -8.0), 8.0)
    for s0 in range(0, L, BLOCK):
        o = s0 + tl.arange(0, BLOCK)
        m = o < L
        x = tl.load(x_ptr + row * L + o, mask=m, other=0.0)
        tl.store(y_ptr + row * L + o, x * w + b, mask=m)


class ModelNew(nn.Module):
    """WRONG: per-channel affine with weight and bias clamped to [-8, 8]: written against params_far, whose gains
    above the band reach 32 * max(|v|, 1); a clamp further out than params_far's first draws."""

    def __init__(self, channels: int):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(channels))
        self.bias = nn.Parameter(torch.zeros(channels))

    def forward(self, x):
        x = x.contiguous()
        B, C, L = x.shape
        y = torch.empty_like(x)
        affine_kernel[(B * C,)](x, self.weight, self.bias, y, C, L, BLOCK=64)
        return y
