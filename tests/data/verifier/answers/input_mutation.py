import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def add_inplace(a_ptr, b_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(a_ptr + offs, tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask), mask=mask)


class ModelNew(nn.Module):
    """Right answer, but written into its first input."""

    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        n = a.numel()
        add_inplace[(triton.cdiv(n, 1024),)](a, b, n, BLOCK=1024)
        return a
