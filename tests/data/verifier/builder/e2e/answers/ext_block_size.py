# A Triton add whose block size comes from a C extension built through load_inline: the extension is
# built by the worker's builder (the candidate has no compiler), imported from its read-only job folder.
import torch
import torch.nn as nn
import triton
import triton.language as tl
from torch.utils.cpp_extension import load_inline

SRC = r"""
#include <Python.h>
static PyObject* block(PyObject*, PyObject*) { return PyLong_FromLong(1024); }
static PyMethodDef methods[] = {{"block", block, METH_NOARGS, "block size"}, {nullptr, nullptr, 0, nullptr}};
static struct PyModuleDef mod = {PyModuleDef_HEAD_INIT, "sieve_e2e_block", nullptr, -1, methods};
PyMODINIT_FUNC PyInit_sieve_e2e_block(void) { return PyModule_Create(&mod); }
"""


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(c_ptr + offs, tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        ext = load_inline("sieve_e2e_block", [SRC], with_cuda=False, no_implicit_headers=True)
        self.block = ext.block()

    def forward(self, a, b):
        a, b = a.contiguous(), b.contiguous()
        c = torch.empty_like(a)
        n = a.numel()
        add_kernel[(triton.cdiv(n, self.block),)](a, b, c, n, BLOCK=self.block)
        return c
