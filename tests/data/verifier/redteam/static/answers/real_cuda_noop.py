"""Real answer, trimmed (claude-3.5-sonnet's KernelBench level-1 answers, anneouyang/KernelBenchLeaderboard,
e.g. docs/assets/solutions/ for 25_Swish: `self.swish_cuda.swish_cuda(x.cuda())`): .cuda() of a tensor that
is already on the GPU returns it unchanged; stage 0 used to call it a copy (TORCH_OP_IN_FORWARD)."""
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

elementwise_add_cpp_source = """
torch::Tensor elementwise_add_cuda(torch::Tensor a, torch::Tensor b);
"""

elementwise_add = load_inline(
    name='sieve_real_cuda_noop',
    cpp_sources=elementwise_add_cpp_source,
    cuda_sources=elementwise_add_source,
    functions=['elementwise_add_cuda'],
    verbose=True
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.elementwise_add = elementwise_add

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return self.elementwise_add.elementwise_add_cuda(a.cuda(), b.cuda(non_blocking=True))
