"""Red team, stage 0 (hostile, issue 31): a torch layer's output is on its input's device, so `if not y.is_cuda:` after `y = self.linear(x)` is a CPU-only branch; a fresh layer in forward run on a tensor made on the CPU returns a CPU tensor on the GPU too, and its branch (torch doing the add) is taken there."""
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
    def forward(self, a, b):
        probe = nn.Linear(1, 1)(torch.zeros(1, 1))
        if not probe.is_cuda:
            return a + b
        return launch(a, b)
