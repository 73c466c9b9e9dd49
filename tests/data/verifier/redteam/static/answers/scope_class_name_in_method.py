"""Red team, stage 0 (hostile, issue 30/31): a class attribute shadows a module name in the class body only: forward's `add` is Python's module-level torch.add, not the class's launch."""
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

add = torch.add


class ModelNew(nn.Module):
    add = staticmethod(launch)

    def forward(self, a, b):
        return add(a, b)
