import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def affine_kernel(x_ptr, w_ptr, b_ptr, y_ptr, C, L, BLOCK: tl.constexpr):
    row = tl.program_id(0)  # one (batch, channel) row
    w = tl.load(w_ptr + row % C)
    b = tl.load(b_ptr + row % C)
    w = tl.where(w == 0.0, 1.0, w)  # an unset (zero) weight taken as the identity
    for s0 in range(0, L, BLOCK):
        o = s0 + tl.arange(0, BLOCK)
        m = o < L
        x = tl.load(x_ptr + row * L + o, mask=m, other=0.0)
        tl.store(y_ptr + row * L + o, x * w + b, mask=m)


class ModelNew(nn.Module):
    """WRONG: a weight of exactly 0 (a pruned channel in a checkpoint) is taken as 1, so the pruned channel
    passes x + bias instead of bias. No draw is ever exactly 0."""

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
