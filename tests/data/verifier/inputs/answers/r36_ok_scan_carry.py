import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scan_kernel(x_ptr, c_ptr, y_ptr, L, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    c = tl.load(c_ptr + r)
    acc = 0.0
    for t0 in range(0, L, BLOCK):
        o = t0 + tl.arange(0, BLOCK)
        m = o < L
        x = tl.load(x_ptr + r * L + o, mask=m, other=0.0)
        s = tl.cumsum(x, axis=0) + acc
        tl.store(y_ptr + r * L + o, s + c, mask=m)
        acc += tl.sum(x, axis=0)


class ModelNew(nn.Module):
    """CORRECT: a blocked prefix sum along the last dimension (each block's scan plus the sum of the blocks before
    it), plus the row's carry."""

    def __init__(self):
        super().__init__()

    def forward(self, x, carry):
        x = x.contiguous()
        L = x.shape[-1]
        y = torch.empty_like(x)
        scan_kernel[(x.numel() // L,)](x, carry.contiguous(), y, L, BLOCK=16)
        return y
