"""Round 46 (a reviewer's, against 72f75cc): while the answer's grid function runs, Python of the answer's may start
inside the launch, and the gate takes loads and stores from kernel code. The grid function runs the kernel's programs
itself (triton's rewritten kernel, called once per row through the interpreter's builder), with numpy's softmax on the
tile between the load and the store (a plain helper the kernel calls would be refused, so the kernel keeps its tile in
a dict and the grid function works on it between two calls), and returns an empty grid. The wall refuses the
answer's kernel run from its grid function."""
import sys

import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl

KEPT = {}
ROWS = {}


@triton.jit
def softmax_rows(x_ptr, out_ptr, d, r, PHASE: tl.constexpr, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    m = o < d
    if PHASE == 0:
        v = tl.load(x_ptr + r * d + o, mask=m, other=-float("inf"))
        KEPT["t"] = v
    else:
        tl.store(out_ptr + r * d + o, KEPT["t"], mask=m)


def grid_fn(meta):
    ex = sys._getframe(1).f_locals["self"]
    fn = ex.fn
    for r in range(ROWS["b"]):
        fn(**{**meta, "r": r, "PHASE": 0})
        a = KEPT["t"].handle.data
        e = np.exp(a - a.max(axis=-1, keepdims=True))
        a[...] = e / e.sum(axis=-1, keepdims=True)
        fn(**{**meta, "r": r, "PHASE": 1})
    return (0,)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        b, d = x.shape
        out = torch.empty_like(x)
        ROWS["b"] = b
        softmax_rows[grid_fn](x, out, d, 0, PHASE=0, BLOCK=triton.next_power_of_2(d))
        return out
