"""KernelBench style: torch in __init__ (a buffer), only kernels in the forward."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, s_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=-float("inf")) * tl.load(s_ptr)
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(y_ptr + row * n_cols + cols, e / tl.sum(e, axis=0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("scale", torch.ones(1) * 2.0 - torch.ones(1))  # torch work at construction

    def forward(self, x):
        x = x.contiguous()
        y = torch.zeros_like(x)
        rows, cols = x.shape
        softmax_kernel[(rows,)](x, y, self.scale, cols, BLOCK=triton.next_power_of_2(cols))
        return y
