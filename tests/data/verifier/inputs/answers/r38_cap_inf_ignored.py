import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    x = tl.load(x_ptr + o, mask=m, other=0.0)
    tl.store(y_ptr + o, tl.where(x > 0, x, 0.0), mask=m)


class ModelNew(nn.Module):
    """WRONG: ReLU with the cap input never read: any finite cap is ignored."""

    def __init__(self):
        super().__init__()

    def forward(self, x, cap):
        x = x.contiguous()
        y = torch.empty_like(x)
        relu_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
        return y
