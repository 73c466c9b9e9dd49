"""Red team, stage 0, legitimate: a module-level extension whose function is bound to self in __init__."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline as li

cuda_src = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void add_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

torch::Tensor add_cuda(torch::Tensor a, torch::Tensor b) {
    TORCH_CHECK(a.is_cuda(), "a must be a CUDA tensor");
    auto c = torch::empty_like(a);
    int n = a.numel();
    const int threads = 256;
    add_kernel<<<(n + threads - 1) / threads, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        a.data_ptr<float>(), b.data_ptr<float>(), c.data_ptr<float>(), n);
    return c;
}
"""
cpp_src = "torch::Tensor add_cuda(torch::Tensor a, torch::Tensor b);"
FUNCS = ["add_cuda"]

ext = li(name="sieve_rt_bound_ext", cpp_sources=[cpp_src], cuda_sources=[cuda_src], functions=["add_cuda"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.fn = ext.add_cuda

    def forward(self, a, b):
        return self.fn(a, b)
