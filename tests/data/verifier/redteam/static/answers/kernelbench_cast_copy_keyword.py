"""Red team, stage 0 (hostile, issue 31): policy kernelbench notes a host-side cast whatever keywords spell it, but copy=True is a copy (torch's copy kernel in the timed path), refused like clone()."""
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
        return launch(a.to(device=a.device, dtype=torch.float32, copy=True), b)
