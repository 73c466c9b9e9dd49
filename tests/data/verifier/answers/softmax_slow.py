import time

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(y_ptr + row * n_cols + cols, e / tl.sum(e, axis=0), mask=mask)


class ModelNew(nn.Module):
    """A correct softmax that takes its time (1.5 s per call): long enough to be killed from outside in a test."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        time.sleep(1.5)
        y = torch.empty_like(x)
        softmax_kernel[(x.shape[0],)](x, y, x.shape[-1], BLOCK=triton.next_power_of_2(x.shape[-1]))
        return y
