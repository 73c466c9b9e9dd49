import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sig_scale_kernel(x_ptr, w_ptr, y_ptr, C, L, BLOCK: tl.constexpr):
    row = tl.program_id(0)  # one (batch, channel) row
    c = row % C
    w = tl.load(w_ptr + c)
    for s0 in range(0, L, BLOCK):
        o = s0 + tl.arange(0, BLOCK)
        m = o < L
        x = tl.load(x_ptr + row * L + o, mask=m, other=0.0)
        tl.store(y_ptr + row * L + o, w / (1.0 + tl.exp(-x)), mask=m)


class ModelNew(nn.Module):
    """WRONG: sigmoid(x) * weight with the uint8 keep mask never read (every channel kept, the constructor's): a
    pruned checkpoint's removed channels come out nonzero. constant_discrete varies one-valued masks of dtype bool
    only; a uint8 mask of ones is an integer buffer that is not a permutation: structure, never varied."""

    def __init__(self, channels: int):
        super().__init__()
        self.register_buffer("keep", torch.ones(channels, dtype=torch.uint8))
        self.weight = nn.Parameter(torch.ones(channels))

    def forward(self, x):
        x = x.contiguous()
        B, C, L = x.shape
        y = torch.empty_like(x)
        sig_scale_kernel[(B * C,)](x, self.weight, y, C, L, BLOCK=64)
        return y
