# Hostile: the extension's C++ declares ATen's add by hand (no torch header, nothing a text scan of
# includes sees) and calls it; the built module imports at::_ops::add_Tensor::call.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

SRC = r"""
#include <Python.h>
namespace c10 { struct Scalar { char b[32]; }; } namespace at { class Tensor { void* impl; };
namespace _ops { struct add_Tensor { static Tensor call(const Tensor&, const Tensor&, const c10::Scalar&); }; } }
extern "C" void* sieve_add(void* a, void* b, void* s) {
  static at::Tensor t = at::_ops::add_Tensor::call(*(at::Tensor*)a, *(at::Tensor*)b, *(c10::Scalar*)s);
  return &t;
}
static struct PyModuleDef mod = {PyModuleDef_HEAD_INIT, "sieve_e2e_aten", nullptr, -1, nullptr};
PyMODINIT_FUNC PyInit_sieve_e2e_aten(void) { return PyModule_Create(&mod); }
"""


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.ext = load_inline("sieve_e2e_aten", [SRC], with_cuda=False, no_implicit_headers=True)

    def forward(self, a, b):
        return a + b
