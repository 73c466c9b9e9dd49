"""a real CUDA softmax (one block per row, shared-memory reductions): must pass, its ablation probe included."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor run(torch::Tensor x);"
cuda_src = r"""
#include <torch/extension.h>
__global__ void copy_rows(const float* s, float* d, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) d[i] = s[i];
}
__global__ void softmax_rows(const float* x, float* y, int cols) {
    extern __shared__ float buf[];
    int row = blockIdx.x;
    const float* xr = x + (long)row * cols;
    float m = -INFINITY;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, xr[c]);
    buf[threadIdx.x] = m;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) buf[threadIdx.x] = fmaxf(buf[threadIdx.x], buf[threadIdx.x + s]);
        __syncthreads();
    }
    m = buf[0];
    __syncthreads();
    float sum = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) sum += expf(xr[c] - m);
    buf[threadIdx.x] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
        __syncthreads();
    }
    sum = buf[0];
    for (int c = threadIdx.x; c < cols; c += blockDim.x) y[(long)row * cols + c] = expf(xr[c] - m) / sum;
}
torch::Tensor run(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int rows = x.size(0), cols = x.size(1);
    softmax_rows<<<rows, 256, 256 * sizeof(float)>>>(x.data_ptr<float>(), y.data_ptr<float>(), cols);
    return y;
}
"""
ext = load_inline(name="sieve_c_softmax_legit", cpp_sources=cpp_src, cuda_sources=cuda_src, functions=["run"], verbose=False)


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.run(x.contiguous())
