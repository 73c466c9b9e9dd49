"""Red team, stage 0, legitimate: a host wrapper called with *args and **kwargs (literal and not), a defaultdict of block sizes."""
import torch
import torch.nn as nn
import torch.nn.functional as F
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


def launch(x):
    y = torch.empty_like(x)
    softmax_kernel[(x.shape[0],)](x, y, x.shape[-1], BLOCK=triton.next_power_of_2(x.shape[-1]))
    return y
import collections


def run(x, block=None, num_warps=4):
    y = torch.empty_like(x)
    cols = x.shape[-1]
    softmax_kernel[(x.shape[0],)](x, y, cols, BLOCK=block or triton.next_power_of_2(cols), num_warps=num_warps)
    return y


BLOCKS = collections.defaultdict(lambda: None, {100: 128})


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        opts = {"block": BLOCKS[x.shape[-1]]}
        args = [x]
        return run(*args, **opts)
