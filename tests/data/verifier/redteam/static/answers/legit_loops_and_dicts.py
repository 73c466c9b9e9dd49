"""Red team, stage 0, legitimate: kernels chosen through dict keys and items, a loop that rebinds through a chain, a comprehension, sorted with key=."""
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

KERNELS = {"softmax": launch}


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        names = sorted(KERNELS, key=len)
        cur, nxt = launch, launch
        y = x
        for name in names:
            for k, fn in KERNELS.items():
                y = fn(x)
            cur, nxt = nxt, KERNELS[name]
        dims = [d for d in x.shape]
        assert len(dims) == x.dim()
        return cur(x) if len(dims) == 2 else y
