"""Red team, stage 0 (legitimate, issue 30/31): class attributes reached through self (and a comprehension over a class-body list) are the class's."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(c_ptr + offs, tl.load(a_ptr + offs, mask=m) + tl.load(b_ptr + offs, mask=m), mask=m)


def launch(a, b):
    c = torch.empty_like(a)
    add_kernel[(triton.cdiv(a.numel(), 256),)](a, b, c, a.numel(), BLOCK=256)
    return c


class ModelNew(nn.Module):
    BLOCK = 256
    kernels = (add_kernel,)
    table = [k for k in kernels]

    def forward(self, a, b):
        c = torch.empty_like(a)
        self.table[0][(triton.cdiv(a.numel(), self.BLOCK),)](a, b, c, a.numel(), BLOCK=self.BLOCK)
        return c
