import torch
from torch.utils.cpp_extension import load_inline

kernel_code = """
#include <torch/extension.h>

__global__ void elementwise_add_kernel(const float* in1, const float* in2, float* result, int numel) {
    int tid = threadIdx.x + blockIdx.x * blockDim.x;
    if (tid < numel) {
        float lhs = in1[tid];
        float rhs = in2[tid];
        result[tid] = lhs + rhs;
    }
}

torch::Tensor elementwise_add(torch::Tensor in1, torch::Tensor in2) {
    auto result = torch::empty_like(in1);
    int numel = in1.numel();
    int threads = 1024;
    int blocks = (numel + threads - 1) / threads;
    elementwise_add_kernel<<<blocks, threads>>>(in1.data_ptr<float>(), in2.data_ptr<float>(),
                                                result.data_ptr<float>(), numel);
    return result;
}
"""

add_module = load_inline(name="elementwise_add", cpp_sources="torch::Tensor elementwise_add(torch::Tensor in1, torch::Tensor in2);",
                         cuda_sources=kernel_code, functions=["elementwise_add"])


class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.add_module_ext = add_module

    def forward(self, a, b):
        return self.add_module_ext.elementwise_add(a, b)
