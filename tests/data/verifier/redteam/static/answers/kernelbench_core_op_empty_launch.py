"""Red team, stage 0 (hostile, issue 30/31): policy kernelbench keeps a core op only beside a kernel of the answer: a launch of (0,) programs is none."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def touch_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


class ModelNew(nn.Module):
    def forward(self, a, b):
        c = torch.matmul(a, b)
        touch_kernel[(0,)](c, c.numel(), BLOCK=256)
        return c
