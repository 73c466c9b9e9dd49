"""Real answer, trimmed (gpt-o1's KernelBench answers, anneouyang/KernelBenchLeaderboard, e.g. 31_ELU and
95_CrossEntropyLoss): extra_include_paths=[] names no path; stage 0 used to refuse the keyword
(EXTENSION_FLAGS)."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

add_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void elementwise_add_kernel(const float* x, const float* y, float* z, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        z[i] = x[i] + y[i];
}

torch::Tensor elementwise_add_cuda(torch::Tensor a, torch::Tensor b) {
    auto z = torch::empty_like(a);
    const int n = a.numel();
    const int blocks = (n + 255) / 256 < 1024 ? (n + 255) / 256 : 1024;
    elementwise_add_kernel<<<blocks, 256>>>(a.data_ptr<float>(), b.data_ptr<float>(), z.data_ptr<float>(), n);
    return z;
}
"""

add_cpp_source = r"""
torch::Tensor elementwise_add_cuda(torch::Tensor a, torch::Tensor b);
"""

add_module = load_inline(
    name="sieve_real_empty_include_paths",
    cpp_sources=add_cpp_source,
    cuda_sources=add_source,
    functions=["elementwise_add_cuda"],
    verbose=False,
    extra_cflags=[],
    extra_ldflags=[],
    extra_include_paths=[],
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, a, b):
        return add_module.elementwise_add_cuda(a, b)
