"""Real answer, trimmed (gpt-o1's 37_FrobeniusNorm_, anneouyang/KernelBenchLeaderboard: the host function
returns `out.view_as(x)`): view_as is a view like view(); stage 0 used to call it ATen compute
(TORCH_OP_IN_FORWARD)."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

add_cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void add_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ out,
                           int size) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < size) {
        out[idx] = a[idx] + b[idx];
    }
}

torch::Tensor add_cuda(torch::Tensor a, torch::Tensor b) {
    auto a_flat = a.contiguous().view(-1);
    auto b_flat = b.contiguous().view(-1);
    auto out = torch::empty_like(a_flat);
    int size = a_flat.numel();
    const int threads = 256;
    const int blocks = (size + threads - 1) / threads;
    add_kernel<<<blocks, threads>>>(a_flat.data_ptr<float>(), b_flat.data_ptr<float>(), out.data_ptr<float>(), size);
    auto output = out.view_as(a);
    return output;
}
"""

add_cpp_source = "torch::Tensor add_cuda(torch::Tensor a, torch::Tensor b);"

add_ext = load_inline(
    name="sieve_real_view_as_cpp",
    cpp_sources=add_cpp_source,
    cuda_sources=add_cuda_source,
    functions=["add_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.add = add_ext

    def forward(self, a, b):
        return self.add.add_cuda(a, b)
