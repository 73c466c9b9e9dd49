"""Red team, stage 0 (hostile, issue 30/31): torch.nn.utils.parametrize runs the answer's module on every read of the weight: torch work the forward does not show."""
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


class Plus(nn.Module):
    def forward(self, w):
        return w + 1.0


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.h = nn.Linear(1, 1)
        torch.nn.utils.parametrize.register_parametrization(self.h, "weight", Plus())

    def forward(self, a, b):
        return launch(a, b + 0 * self.h.weight.view(-1)[0].view(()).expand_as(b).contiguous())
