"""Red team, stage 0 (hostile, issue 30/31): a dataclass's generated __init__ replaces the field's default (launch) with torch.add."""
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

import dataclasses


@dataclasses.dataclass
class Plan:
    scale: int = 1
    op: object = launch


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.plan = Plan(1, torch.add)

    def forward(self, a, b):
        return self.plan.op(a, b)
