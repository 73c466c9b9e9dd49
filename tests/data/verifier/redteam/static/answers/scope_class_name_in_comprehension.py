"""Red team, stage 0 (hostile, issue 30/31): a comprehension of the class body: its element expression sees the module's `f` (torch.add), only its first iterable sees the class body."""
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

f = torch.add


class ModelNew(nn.Module):
    f = launch
    fns = [f for _ in range(1)]

    def forward(self, a, b):
        return self.fns[0](a, b)
