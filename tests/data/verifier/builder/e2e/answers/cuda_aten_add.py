# Hostile: a __global__ that never runs beside a wrapper whose "kernel" is ATen's add, reached through an
# operator of the answer's own; refused by the built module's imports with stage 0 skipped.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
__global__ void vadd_kernel(float* c) { c[0] = 0; }
struct W { torch::Tensor t; };
static W operator|(const W& a, const W& b) { return W{a.t + b.t}; }
torch::Tensor vadd(torch::Tensor a, torch::Tensor b) { return (W{a} | W{b}).t; }
"""


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.ext = load_inline(name="sieve_e2e_aten_cuda", cpp_sources="torch::Tensor vadd(torch::Tensor a, torch::Tensor b);",
                               cuda_sources=cuda_src, functions=["vadd"])

    def forward(self, a, b):
        return self.ext.vadd(a, b)
