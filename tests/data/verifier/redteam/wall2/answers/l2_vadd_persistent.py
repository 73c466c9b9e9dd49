"""legit: a persistent vector add: a fixed grid of 3 programs strides over the blocks."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def add_persistent(a, b, c, n, NPROG: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nblocks = tl.cdiv(n, BLOCK)
    for blk in range(pid, nblocks, NPROG):
        o = blk * BLOCK + tl.arange(0, BLOCK)
        m = o < n
        tl.store(c + o, tl.load(a + o, mask=m) + tl.load(b + o, mask=m), mask=m)


class ModelNew(nn.Module):
    def forward(self, a, b):
        c = torch.empty_like(a)
        add_persistent[(3,)](a, b, c, c.numel(), NPROG=3, BLOCK=256)
        return c
