"""Real answer, trimmed (KernelBench's own load_inline example as models copy it, e.g. the leaderboard's
answers in anneouyang/KernelBenchLeaderboard docs/assets/solutions/): extra_cflags=[""], extra_ldflags=[""]
add no flag to the build; stage 0 used to refuse them (EXTENSION_FLAGS)."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

elementwise_add_source = """
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

elementwise_add_cpp_source = "torch::Tensor elementwise_add_cuda(torch::Tensor a, torch::Tensor b);"

elementwise_add = load_inline(
    name="sieve_real_cflags_empty",
    cpp_sources=elementwise_add_cpp_source,
    cuda_sources=elementwise_add_source,
    functions=["elementwise_add_cuda"],
    verbose=True,
    extra_cflags=[""],
    extra_ldflags=[""],
)


class ModelNew(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.elementwise_add = elementwise_add

    def forward(self, a, b):
        return self.elementwise_add.elementwise_add_cuda(a, b)
