"""The shape the harness applies, changed where it is kept: the child's ctx (a dict, found with gc, in no snapshot)
holds the call's shape, which apply_shape sets on the task module right before the inputs are made. The constructor
puts an object there whose __index__ runs while get_inputs makes them (torch.rand(BATCH, DIM)); the forward is
right only if it ran (a stand-in for the compute a C-callable __index__ would do), a copy otherwise. Against
apply_shape's plain values (exact ints): refused (FAIL_RUNTIME)."""
import gc

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
        for o in gc.get_objects():
            if type(o).__name__ == "Child" and type(o).__module__.endswith("candidate.child"):
                for shape in o.ctx.get("shapes") or []:
                    if isinstance(shape, dict) and "BATCH" in shape:
                        shape["BATCH"] = Sneaky(int(shape["BATCH"]))

    def forward(self, x):
        if not RAN:  # the gadget did not run while the inputs were made: a copy, wrong
            y = torch.empty_like(x)
            copy_kernel[(triton.cdiv(x.numel(), 256),)](x, y, x.numel(), BLOCK=256)
            return y
        y = torch.empty_like(x)
        softmax_kernel[(x.shape[0],)](x, y, x.shape[1], BLOCK=triton.next_power_of_2(x.shape[1]))
        return y
