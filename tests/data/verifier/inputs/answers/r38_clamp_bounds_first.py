import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def clamp_kernel(x_ptr, lo_ptr, hi_ptr, y_ptr, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    x = tl.load(x_ptr + o, mask=m, other=0.0)
    lo = tl.load(lo_ptr)
    hi = tl.load(hi_ptr)
    tl.store(y_ptr + o, tl.minimum(tl.maximum(x, lo), hi), mask=m)


class ModelNew(nn.Module):
    """WRONG: per-channel bounds read as one pair (lo[0], hi[0]) for every channel."""

    def __init__(self):
        super().__init__()

    def forward(self, x, lo, hi):
        x = x.contiguous()
        y = torch.empty_like(x)
        clamp_kernel[(triton.cdiv(x.numel(), 1024),)](x, lo.contiguous(), hi.contiguous(), y, x.numel(), BLOCK=1024)
        return y
