"""Red team, stage 0 (legitimate, issue 30/31): issue 31: an ordinary include guard (#define X_H, #include on the next line) is not token pasting."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = """
#ifndef SIEVE_ADD_H
#define SIEVE_ADD_H
#include <torch/extension.h>
#include <cuda_runtime.h>
#endif

__global__ void add_kernel(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

torch::Tensor add_cuda(torch::Tensor a, torch::Tensor b) {
    auto c = torch::empty_like(a);
    int n = a.numel();
    add_kernel<<<(n + 255) / 256, 256>>>(a.data_ptr<float>(), b.data_ptr<float>(), c.data_ptr<float>(), n);
    return c;
}
"""
cpp_src = "torch::Tensor add_cuda(torch::Tensor a, torch::Tensor b);"


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.ext = load_inline(name="sieve_rt_guarded", cpp_sources=cpp_src, cuda_sources=cuda_src,
                               functions=["add_cuda"], verbose=False)

    def forward(self, a, b):
        return self.ext.add_cuda(a, b)
