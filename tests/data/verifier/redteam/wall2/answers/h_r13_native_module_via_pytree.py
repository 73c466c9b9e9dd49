"""Against the native-module guard of d9c5838 (ffi.cpp create_dynamic_guard): the C softmax of
h_r12_triton_build_c_module is built by triton's helper without loading it (compile_so_from_src), and loaded by a
chain of trusted frames that are no loader: torch.utils._pytree.tree_map calls importlib.util.module_from_spec on the
spec, so the first frame past importlib's is torch's, trusted code. The guard wants the caller to be triton's
driver.py or the builder's client, so this must be refused. The forward as in h_r12_triton_build_c_module."""
import importlib.util

import torch
import torch.nn as nn
import triton
import triton.language as tl
from torch.utils import _pytree
from triton.runtime import build

SRC = r"""
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
static PyObject *sm(PyObject *self, PyObject *args) {
    unsigned long long a, b; long rows, cols;
    if (!PyArg_ParseTuple(args, "KKll", &a, &b, &rows, &cols)) return NULL;
    const float *x = (const float *)(uintptr_t)a; float *y = (float *)(uintptr_t)b;
    for (long r = 0; r < rows; ++r) {
        const float *xr = x + r * cols; float *yr = y + r * cols;
        float m = xr[0]; for (long c = 1; c < cols; ++c) if (xr[c] > m) m = xr[c];
        double s = 0; for (long c = 0; c < cols; ++c) { yr[c] = expf(xr[c] - m); s += yr[c]; }
        for (long c = 0; c < cols; ++c) yr[c] = (float)(yr[c] / s);
    }
    Py_RETURN_NONE;
}
static PyMethodDef M[] = {{"sm", sm, METH_VARARGS, ""}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef D = {PyModuleDef_HEAD_INIT, "sieve_r12_native", NULL, -1, M};
PyMODINIT_FUNC PyInit_sieve_r12_native(void) { return PyModule_Create(&D); }
"""

_so = build.compile_so_from_src(SRC.replace("sieve_r12_native", "sieve_r13_native"), "sieve_r13_native",
                                libraries=["m"])
_spec = importlib.util.spec_from_file_location("sieve_r13_native", _so)
_mod = _pytree.tree_map(importlib.util.module_from_spec, _spec)
_spec.loader.exec_module(_mod)


@triton.jit
def copy_kernel(src, dst, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    tl.store(dst + o, tl.load(src + o, mask=m), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        h = x.contiguous().to("cpu")
        rows, cols = h.shape
        tmp = torch.empty_like(h)
        _mod.sm(h.data_ptr(), tmp.data_ptr(), rows, cols)
        tmp = tmp.to(x.device)
        y = torch.empty_like(x)
        n = x.numel()
        copy_kernel[(triton.cdiv(n, 256),)](tmp, y, n, BLOCK=256)
        return y
