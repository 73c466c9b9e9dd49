import torch
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>

// one thread per element
__global__ void vec_add(const float* __restrict__ x, const float* __restrict__ y, float* __restrict__ z, int size) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < size) z[i] = x[i] + y[i];
}

torch::Tensor vec_add_forward(torch::Tensor x, torch::Tensor y) {
    int size = x.numel();
    auto z = torch::empty_like(x);
    const int block = 512;
    vec_add<<<(size + block - 1) / block, block>>>(x.data_ptr<float>(), y.data_ptr<float>(), z.data_ptr<float>(), size);
    return z;
}
"""

module = load_inline(name="vec_add", cpp_sources="torch::Tensor vec_add_forward(torch::Tensor x, torch::Tensor y);",
                     cuda_sources=cuda_src, functions=["vec_add_forward"])


class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.module = module

    def forward(self, x, y):
        return self.module.vec_add_forward(x, y)
