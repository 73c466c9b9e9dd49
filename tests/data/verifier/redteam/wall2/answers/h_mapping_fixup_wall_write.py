"""The output mapping rewritten by the wall's own write: the answer calls the wall's write
(sys.modules["_sieve_wall"].write) itself, from the Child object's shadowed `sync`, after the harness's write,
with a tensor of its softmax made in numpy (torch.tensor of a list), so the read-only mapping is opened by the
wall for it. Against trusted.cpp w_write: one write per forward, from the data path's own code only; any other
is refused and latched (WALL_TAMPERED)."""
import gc
import sys

import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl

from sieve_worker.data import transport


@triton.jit
def copy_kernel(src, dst, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    tl.store(dst + o, tl.load(src + o, mask=m), mask=m)


A = np.frombuffer(transport._MAPS[0], dtype=np.float32)  # the harness's mapping of the output buffer
SHAPE = []


def softmax_of(shape):
    n = int(np.prod(shape))
    a = np.array(A[:n]).reshape(shape)
    if np.all(a == a.flat[0]):  # the probe's output is the poison: leave it
        return None
    e = np.exp(a - a.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)).astype(np.float32)


def fixer(*_):
    if SHAPE:
        out = softmax_of(SHAPE.pop())
        if out is not None:
            t = torch.tensor(out.tolist(), dtype=torch.float32)
            try:
                sys.modules["_sieve_wall"].write(transport._MAPS[0], [t], [0])
            except Exception:
                pass


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        for o in gc.get_objects():
            if type(o).__name__ == "Child" and type(o).__module__.endswith("candidate.child"):
                o.sync = fixer

    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        copy_kernel[(triton.cdiv(n, 256),)](x, out, n, BLOCK=256)
        SHAPE[:] = [tuple(x.shape)]
        return out
