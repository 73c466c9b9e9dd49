"""Red team, stage 0 (hostile, issue 30/31): a default grid function: Triton calls it with the kernel's arguments (tensors) and it computes the sum in torch, then asks for no program."""
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


def fill_grid(meta):
    meta["c_ptr"].copy_(meta["a_ptr"] + meta["b_ptr"])
    return (0,)


class ModelNew(nn.Module):
    def __init__(self, grid=fill_grid):
        super().__init__()
        self.grid = grid

    def forward(self, a, b):
        c = torch.empty_like(a)
        add_kernel[self.grid](a, b, c, a.numel(), BLOCK=256)
        return c
