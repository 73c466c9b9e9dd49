"""Red team, stage 0, legitimate: KernelBench's CUDA pattern: self.ext = load_inline(...) in __init__, self.ext.fn(x) in forward."""
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


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.ext = li(name="sieve_rt_self_ext", cpp_sources=cpp_src, cuda_sources=cuda_src, functions=FUNCS,
                      extra_cflags=["-O3"], extra_cuda_cflags=["-O3", "--use_fast_math", "-std=c++17"],
                      verbose=False, with_cuda=True)

    def forward(self, a, b):
        return self.ext.add_cuda(a.contiguous(), b.contiguous())
