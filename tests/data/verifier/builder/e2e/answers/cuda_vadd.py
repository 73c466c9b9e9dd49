# KernelBench-style CUDA answer: the extension is built by the worker's builder, not in this process.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
__global__ void vadd_kernel(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
torch::Tensor vadd(torch::Tensor a, torch::Tensor b) {
    auto c = torch::empty_like(a);
    int n = a.numel();
    vadd_kernel<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        a.data_ptr<float>(), b.data_ptr<float>(), c.data_ptr<float>(), n);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return c;
}
"""
cpp_src = "torch::Tensor vadd(torch::Tensor a, torch::Tensor b);"


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.ext = load_inline(name="sieve_e2e_vadd", cpp_sources=cpp_src, cuda_sources=cuda_src,
                               functions=["vadd"], extra_cuda_cflags=["-O3"], verbose=False)

    def forward(self, a, b):
        return self.ext.vadd(a.contiguous(), b.contiguous())
