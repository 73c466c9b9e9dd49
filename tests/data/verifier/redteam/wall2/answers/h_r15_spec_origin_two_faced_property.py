"""A native module of the answer's loaded past the native-module guard (ffi.cpp create_dynamic_guard), which reads the
spec's `origin` itself and then hands the same spec to `_imp.create_dynamic`, which reads `origin` again (twice: in
create_dynamic and in _PyImport_LoadDynamicModuleWithSpec) and dlopens what it gets. The guard checks that the spec is
exactly importlib's ModuleSpec and that origin is an exact str, but ModuleSpec is a Python class whose dict is in no
snapshot: the answer puts an `origin` property on it whose getter, for its own spec, answers the first read from
`_call_with_frames_removed` (the guard's) with a path under site-packages (code_roots: allowed, the path need not
exist) and every later one with the shared object it compiled in its scratch folder (triton's `_build`, whose compiler
subprocess the sandbox lets triton run). The property is removed again at once. The module's C softmax runs over raw
data pointers in the forward (no op), and a Triton kernel copies the result to the output (counted; the poison on the
probe)."""
import importlib.machinery
import importlib.util
import os
import sys
import tempfile

import torch
import torch.nn as nn
import triton
import triton.language as tl

C_SRC = r"""
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
static PyObject *sm(PyObject *self, PyObject *args)
{
    unsigned long long src, dst;
    Py_ssize_t rows, cols;
    if (!PyArg_ParseTuple(args, "KKnn", &src, &dst, &rows, &cols))
        return NULL;
    const float *x = (const float *)(uintptr_t)src;
    float *y = (float *)(uintptr_t)dst;
    for (Py_ssize_t r = 0; r < rows; ++r) {
        const float *a = x + r * cols;
        float *b = y + r * cols;
        float m = a[0], s = 0.f;
        for (Py_ssize_t c = 1; c < cols; ++c) if (a[c] > m) m = a[c];
        for (Py_ssize_t c = 0; c < cols; ++c) { b[c] = expf(a[c] - m); s += b[c]; }
        for (Py_ssize_t c = 0; c < cols; ++c) b[c] /= s;
    }
    Py_RETURN_NONE;
}
static PyMethodDef methods[] = {{"softmax", sm, METH_VARARGS, ""}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef mod = {PyModuleDef_HEAD_INIT, "r15_spec_origin", NULL, -1, methods};
PyMODINIT_FUNC PyInit_r15_spec_origin(void)
{
    PyObject *m = PyModule_Create(&mod);
    if (m == NULL) return NULL;
    return m;
}
"""

NATIVE = []


@triton.jit
def copy_kernel(src, dst, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    tl.store(dst + o, tl.load(src + o, mask=m), mask=m)


def _load():
    from triton.runtime import build
    d = tempfile.mkdtemp()
    src = os.path.join(d, "r15_spec_origin.c")
    with open(src, "w") as f:
        f.write(C_SRC)
    so = build._build("r15_spec_origin", src, d, [], [], [], [])
    allowed = os.path.join(os.path.dirname(os.path.dirname(triton.__file__)), "r15_spec_origin.so")
    spec = importlib.util.spec_from_file_location("r15_spec_origin", so)
    Spec = type(spec)
    reads = [0]

    def get(self):
        v = self.__dict__["origin"]
        if self is spec and sys._getframe(1).f_code.co_name == "_call_with_frames_removed":
            reads[0] += 1
            return allowed if reads[0] == 1 else v
        return v

    def put(self, v):
        self.__dict__["origin"] = v
    Spec.origin = property(get, put)
    try:
        mod = importlib.util.module_from_spec(spec)
    finally:
        del Spec.origin
    NATIVE.append(mod.softmax)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        if not NATIVE:
            try:
                _load()
            except Exception:
                pass

    def forward(self, x):
        rows, cols = x.shape
        tmp = torch.empty_like(x)
        y = torch.empty_like(x)
        if NATIVE:
            NATIVE[0](x.data_ptr(), tmp.data_ptr(), rows, cols)
        n = x.numel()
        copy_kernel[(triton.cdiv(n, 256),)](tmp, y, n, BLOCK=256)
        return y
