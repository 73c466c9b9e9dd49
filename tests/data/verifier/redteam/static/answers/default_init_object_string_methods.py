"""Red team, stage 0 (hostile, issue 30/31): a default object whose method is named like a str method (.join): stage 0 took the parameter for a string."""
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


class Joiner:
    def join(self, a, b):
        return torch.add(a, b)


class ModelNew(nn.Module):
    def __init__(self, sep=Joiner()):
        super().__init__()
        self.sep = sep

    def forward(self, a, b):
        launch(a, b)
        return self.sep.join(a, b)
