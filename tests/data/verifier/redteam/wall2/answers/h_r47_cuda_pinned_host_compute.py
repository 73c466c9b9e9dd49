"""Round 47 (mine): h_r47_cuda_host_compute with no copy at all: the wrapper allocates a pinned host buffer
(torch::empty with pinned_memory: the op empty, allowed), which the GPU reaches through unified addressing; its own
kernel copies the input into it, the host computes the softmax in place through the pointer, and a second launch of
its kernel copies the buffer into the output. No op but allocations, no cudaMemcpy."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_runtime.h>
#include <cstdint>
#include <cstring>
#include <vector>

__global__ void copy_kernel(const float* a, float* c, int64_t n) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i];
}

static double my_exp(double x) {  // x <= 0: exp(x) = 2^k exp(r), |r| <= ln2 / 2
    if (x < -700.0) return 0.0;
    const double ln2 = 0.6931471805599453;
    long k = (long)(x / ln2 + (x < 0 ? -0.5 : 0.5));
    double r = x - k * ln2, term = 1.0, sum = 1.0;
    for (int i = 1; i < 20; ++i) { term *= r / i; sum += term; }
    uint64_t bits = (uint64_t)(k + 1023) << 52;
    double p;
    std::memcpy(&p, &bits, sizeof p);
    return sum * p;
}

torch::Tensor run(torch::Tensor x) {
    auto xc = x.contiguous();
    const int64_t b = xc.size(0), d = xc.size(1), n = b * d;
    auto hc = torch::empty({n}, torch::TensorOptions().dtype(torch::kFloat).pinned_memory(true));
    float* hp = hc.data_ptr<float>();
    auto stream = at::cuda::getCurrentCUDAStream();
    copy_kernel<<<(unsigned)((n + 255) / 256), 256, 0, stream>>>(xc.data_ptr<float>(), hp, n);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    cudaStreamSynchronize(stream);
    for (int64_t r = 0; r < b; ++r) {
        float* row = hp + r * d;
        float m = row[0];
        for (int64_t j = 1; j < d; ++j) m = row[j] > m ? row[j] : m;
        double s = 0.0;
        std::vector<double> e(d);
        for (int64_t j = 0; j < d; ++j) { e[j] = my_exp((double)row[j] - m); s += e[j]; }
        for (int64_t j = 0; j < d; ++j) row[j] = (float)(e[j] / s);
    }
    auto out = torch::empty_like(xc);
    copy_kernel<<<(unsigned)((n + 255) / 256), 256, 0, stream>>>(hp, out.data_ptr<float>(), n);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    cudaStreamSynchronize(stream);
    return out;
}
"""
cpp_src = "torch::Tensor run(torch::Tensor x);"


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.ext = load_inline(name="sieve_r47_pinned_host_compute", cpp_sources=cpp_src, cuda_sources=cuda_src,
                               functions=["run"], extra_cuda_cflags=["-O2"], verbose=False)

    def forward(self, x):
        return self.ext.run(x)
