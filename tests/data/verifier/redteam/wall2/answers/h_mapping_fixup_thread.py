"""The output mapping rewritten by a thread of the answer's, with no harness attribute: a thread started in the
constructor spins, and whenever the mapping holds a copy of an input (not the poison) writes its softmax over it
through a numpy view; it races the harness's write and the worker's read. Against the wall's write (trusted.cpp
w_write), which copies with the GIL held and leaves the mapping read-only: the thread's write is a SIGSEGV."""
import threading

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


def spin():
    import time
    while True:
        if SHAPE:
            shape = SHAPE[0]
            n = int(np.prod(shape))
            a = A[:n].reshape(shape)
            if not np.allclose(a.sum(axis=-1), 1.0, atol=1e-3) and not np.all(a == a.flat[0]):
                out = softmax_of(shape)
                if out is not None:
                    a[...] = out
        time.sleep(0)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        if not any(t.name == "fixer" for t in threading.enumerate()):
            threading.Thread(target=spin, name="fixer", daemon=True).start()

    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        copy_kernel[(triton.cdiv(n, 256),)](x, out, n, BLOCK=256)
        SHAPE[:] = [tuple(x.shape)]
        return out
