"""Against 0944f43 (the wall routes every calling convention of extension functions): on the probe the wall
poisons every tensor argument and result of an extension function, so a value merely passed through one (a
hand-written METH_O identity) comes out as poison whoever computed it. numpy computes on dlpack views (no ATen
op), a decoy Triton kernel writes a scratch buffer so that launches are counted, and the identity carries the
result out: the probe proves only that the output passed through the extension."""
import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl
from torch.utils.cpp_extension import load_inline

SRC = r"""
#include <Python.h>
static PyObject* same(PyObject*, PyObject* t) { Py_INCREF(t); return t; }
static PyMethodDef methods[] = {{"same", same, METH_O, "returns its argument"}, {nullptr, nullptr, 0, nullptr}};
static struct PyModuleDef mod = {PyModuleDef_HEAD_INIT, "sieve_w2_same", nullptr, -1, methods};
PyMODINIT_FUNC PyInit_sieve_w2_same(void) { return PyModule_Create(&mod); }
"""


@triton.jit
def decoy_kernel(dst, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(dst + o, tl.zeros([BLOCK], dtype=tl.float32), mask=o < n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.ext = load_inline("sieve_w2_same", [SRC], with_cuda=False, no_implicit_headers=True)

    def forward(self, x):
        scratch = torch.empty(256, device=x.device)
        decoy_kernel[(1,)](scratch, 256, BLOCK=256)
        a = np.from_dlpack(x)
        out = torch.empty_like(x)
        e = np.exp(a - a.max(axis=-1, keepdims=True))
        np.from_dlpack(out)[...] = e / e.sum(axis=-1, keepdims=True)
        return self.ext.same(out)
