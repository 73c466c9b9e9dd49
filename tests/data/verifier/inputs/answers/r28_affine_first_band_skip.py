import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def affine_kernel(x_ptr, w_ptr, b_ptr, y_ptr, C, L, BLOCK: tl.constexpr):
    row = tl.program_id(0)  # one (batch, channel) row
    w0 = tl.load(w_ptr)  # the first gain decides, for every channel
    w = tl.load(w_ptr + row % C)
    b = tl.load(b_ptr + row % C)
    # a first gain in (0, 0.78): the affine is taken as the identity (never drawn: params/abs/signed put it at
    # 1.25..2, params_flip at -0.8..-0.05, params_near at 0.8..1.2)
    skip = (w0 > 0.0) & (w0 < 0.78)
    w = tl.where(skip, 1.0, w)
    b = tl.where(skip, 0.0, b)
    for s0 in range(0, L, BLOCK):
        o = s0 + tl.arange(0, BLOCK)
        m = o < L
        x = tl.load(x_ptr + row * L + o, mask=m, other=0.0)
        tl.store(y_ptr + row * L + o, x * w + b, mask=m)


class ModelNew(nn.Module):
    """WRONG: per-channel affine, dropped for every channel when the first weight lies in (0, 0.78): a checkpoint
    whose first gain is 0.5 loses its whole affine. The draws put each tensor's first element in fixed bands."""

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
