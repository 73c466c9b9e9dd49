"""Red team, stage 0, legitimate: a module-level host wrapper that allocates and launches, with functools.partial and reduce."""
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

import functools
import math
import operator


def softmax(x, block=None):
    x = x.contiguous()
    rows = functools.reduce(operator.mul, x.shape[:-1], 1)
    cols = x.shape[-1]
    assert rows == math.prod(x.shape[:-1])
    y = torch.empty_like(x)
    softmax_kernel[(rows,)](x, y, cols, BLOCK=block or triton.next_power_of_2(cols))
    return y


run = functools.partial(softmax, block=None)


class ModelNew(nn.Module):
    def forward(self, x):
        return run(x)
