import torch
from torch.utils.cpp_extension import load_inline

kernel_code = """
#include <torch/extension.h>

__global__ void elementwise_add_kernel(const float* in1, const float* in2, float* result, int numel) {
    int start = blockIdx.x * blockDim.x + threadIdx.x;
    int step = blockDim.x * gridDim.x;
    for (int k = start; k < numel; k += step) {
        result[k] = in1[k] + in2[k];
    }
}

torch::Tensor elementwise_add(torch::Tensor in1, torch::Tensor in2) {
    int numel = in1.numel();
    auto result = torch::empty_like(in1);
    int blocks = std::min((numel + 255) / 256, 4096);
    elementwise_add_kernel<<<blocks, 256>>>(in1.data_ptr<float>(), in2.data_ptr<float>(),
                                                result.data_ptr<float>(), numel);
    return result;
}
"""

add_module = load_inline(name="elementwise_add_gs", cpp_sources="torch::Tensor elementwise_add(torch::Tensor in1, torch::Tensor in2);",
                         cuda_sources=kernel_code, functions=["elementwise_add"])


class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.add_module = add_module

    def forward(self, a, b):
        return self.add_module.elementwise_add(a, b)
