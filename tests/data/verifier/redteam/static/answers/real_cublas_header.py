"""Real answer, trimmed (llama-3.1-405b's KernelBench level-1 answers, anneouyang/KernelBenchLeaderboard, e.g.
1_Square_matrix_multiplication_): the extension includes <cublas_v2.h> (cuBLAS's calls are scanned as core
ops; this one calls none) and its own kernel does the work; stage 0 used to refuse the header
(INCLUDE_FORBIDDEN)."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

add_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cublas_v2.h>

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

add_cpp_source = "torch::Tensor elementwise_add_cuda(torch::Tensor a, torch::Tensor b);"

add = load_inline(
    name="sieve_real_cublas_header",
    cpp_sources=add_cpp_source,
    cuda_sources=add_source,
    functions=["elementwise_add_cuda"],
    verbose=True,
    extra_cflags=[""],
    extra_ldflags=["-lcublas"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.add = add

    def forward(self, a, b):
        return self.add.elementwise_add_cuda(a, b)
