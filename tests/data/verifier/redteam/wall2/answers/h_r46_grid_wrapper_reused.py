"""Round 46 (a reviewer's, against 72f75cc): the wall hands triton's interpreter its own wrapper of the grid function,
and while the wrapper runs, Python of the answer's may start inside the launch. The grid function takes the wrapper
(GridExecutor's grid, read from its caller's frame) and keeps it; the kernel then calls heapq.nsmallest (held code)
with the wrapper as its key, so the answer's grid function runs again from inside the kernel, in the window, and
computes numpy's softmax in place on the tile the kernel hands it. The wall's wrapper is good for one call per
launch: a second is refused."""
import heapq
import sys

import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl

HELD = {}


def grid_fn(meta):
    if isinstance(meta, dict):
        HELD["w"] = sys._getframe(1).f_locals["self"].grid
        return (HELD["b"],)
    a = meta.handle.data
    e = np.exp(a - a.max(axis=-1, keepdims=True))
    a[...] = e / e.sum(axis=-1, keepdims=True)
    return (0,)


@triton.jit
def softmax_rows(x_ptr, out_ptr, d, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    o = tl.arange(0, BLOCK)
    m = o < d
    v = tl.load(x_ptr + r * d + o, mask=m, other=-float("inf"))
    heapq.nsmallest(1, [v], key=HELD["w"])
    tl.store(out_ptr + r * d + o, v, mask=m)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        b, d = x.shape
        out = torch.empty_like(x)
        HELD["b"] = b
        softmax_rows[grid_fn](x, out, d, BLOCK=triton.next_power_of_2(d))
        return out
