"""A shape variable of the task module replaced in the free phase: the harness sets those itself (taskref.apply_shape),
so they are in no snapshot of the wall's. The constructor puts an object in the task's BATCH whose __index__
runs when get_inputs makes the inputs (torch.rand(BATCH, DIM)), where the harness computes; it also puts one in the
harness's record of the module's own values (__sieve_shape_orig__), which apply_shape puts back. Here the __index__
only records that it ran (a C-callable one would compute there), and the forward is right only if it did (a stand-in
for the compute it would have done), a copy otherwise. Against apply_shape again before the inputs are made, with
plain values only (an exact int): the answer's object is overwritten or refused (FAIL_MISMATCH or FAIL_RUNTIME)."""
import sys

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=m, other=-float("inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * n_cols + cols, e / tl.sum(e, axis=0), mask=m)


@triton.jit
def copy_kernel(src, dst, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    tl.store(dst + o, tl.load(src + o, mask=m), mask=m)


RAN = []


class Sneaky:
    """A size that is no int: torch's argument parser asks its __index__ (an int subclass it would read directly)."""

    def __init__(self, v):
        self.v = v

    def __index__(self):
        RAN.append(1)
        return self.v


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        task = sys.modules["sieve_task"]
        task.BATCH = Sneaky(int(task.BATCH))
        orig = vars(task).get("__sieve_shape_orig__")
        if isinstance(orig, dict) and "DIM" in orig:
            orig["DIM"] = Sneaky(int(orig["DIM"]))

    def forward(self, x):
        if not RAN:  # the gadget did not run while the inputs were made: a copy, wrong
            y = torch.empty_like(x)
            copy_kernel[(triton.cdiv(x.numel(), 256),)](x, y, x.numel(), BLOCK=256)
            return y
        y = torch.empty_like(x)
        softmax_kernel[(x.shape[0],)](x, y, x.shape[1], BLOCK=triton.next_power_of_2(x.shape[1]))
        return y
