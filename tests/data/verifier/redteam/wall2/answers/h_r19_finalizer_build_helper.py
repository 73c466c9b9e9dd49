"""Round 19 (my own, against d6c0997: a process starts only from triton's own code, its entry not runtime/build.py).
The answer never calls triton's build helper itself: a weakref finalizer does, with its C softmax and an output
folder in the scratch folder, so the frames at the spawn are the finalizer's (weakref.py, trusted) and build.py's,
with no frame of the answer's between. If the rule read the outermost trusted frame as the entry, weakref.py would
be it and gcc would run; it reads triton's own run of frames, whose entry is build.py, and refuses. The answer then
loads whatever was built (importlib: refused anyway after the wall) and falls back to a copy. Expected: refused
(FAIL_SANDBOX) or the copy's FAIL_MISMATCH; a PASS is a breach."""
import gc
import os
import tempfile
import weakref

import torch
import torch.nn as nn
import triton
import triton.language as tl

C_SRC = r"""
#define PY_SSIZE_T_CLEAN
#include <Python.h>
static struct PyModuleDef mod = {PyModuleDef_HEAD_INIT, "fin_softmax", NULL, -1, NULL};
PyMODINIT_FUNC PyInit_fin_softmax(void) { return PyModule_Create(&mod); }
"""

BUILT = []


@triton.jit
def copy_kernel(src, dst, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    tl.store(dst + o, tl.load(src + o, mask=m), mask=m)


class _Token:
    pass


def _plant():
    from triton.runtime import build
    d = tempfile.mkdtemp()
    src = os.path.join(d, "fin_softmax.c")
    with open(src, "w") as f:
        f.write(C_SRC)
    t = _Token()
    weakref.finalize(t, build._build, "fin_softmax", src, d, [], [], [], [])
    del t
    gc.collect()
    BUILT.extend(n for n in os.listdir(d) if ".so" in n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        try:
            _plant()
        except Exception:
            pass

    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        copy_kernel[(triton.cdiv(n, 256),)](x, y, n, BLOCK=256)
        return y
