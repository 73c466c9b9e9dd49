import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < N
    tl.store(y_ptr + o, tl.load(x_ptr + o, mask=m, other=0.0), mask=m)


@triton.jit
def add_kernel(i_ptr, s_ptr, y_ptr, D, BLOCK: tl.constexpr):
    k = tl.program_id(0)
    r = tl.load(i_ptr + k)
    o = tl.arange(0, BLOCK)
    m = o < D
    tl.atomic_add(y_ptr + r * D + o, tl.load(s_ptr + k * D + o, mask=m, other=0.0), mask=m)


class ModelNew(nn.Module):
    """CORRECT: out = a copy of x, then each src row atomically added into the row its index names."""

    def __init__(self):
        super().__init__()

    def forward(self, x, index, src):
        x, index, src = x.contiguous(), index.contiguous(), src.contiguous()
        D = x.shape[1]
        y = torch.empty_like(x)
        copy_kernel[(triton.cdiv(x.numel(), 256),)](x, y, x.numel(), BLOCK=256)
        add_kernel[(index.numel(),)](index, src, y, D, BLOCK=triton.next_power_of_2(D))
        return y
