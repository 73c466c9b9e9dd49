"""Red team, stage 0, legitimate: @triton.jit helpers called from the kernel."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_max(x):
    return tl.max(x, axis=0)


@triton.jit
def normalise(x):
    e = tl.exp(x - row_max(x))
    return e / tl.sum(e, axis=0)


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=-float("inf"))
    tl.store(y_ptr + row * n_cols + cols, normalise(x), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        softmax_kernel[(x.shape[0],)](x, y, x.shape[1], BLOCK=triton.next_power_of_2(x.shape[1]))
        return y
