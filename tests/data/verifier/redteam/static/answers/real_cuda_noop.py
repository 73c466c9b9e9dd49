"""Real answer, trimmed (claude-3.5-sonnet's KernelBench level-1 answers, anneouyang/KernelBenchLeaderboard,
e.g. docs/assets/solutions/ for 25_Swish: `self.swish_cuda.swish_cuda(x.cuda())`): .cuda() of a tensor that
is already on the GPU returns it unchanged; stage 0 used to call it a copy (TORCH_OP_IN_FORWARD)."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

elementwise_add_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void elementwise_add_kernel(const float* a, const float* b, float* out, int size) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < size) {
        out[idx] = a[idx] + b[idx];
    }
}

torch::Tensor elementwise_add_cuda(torch::Tensor a, torch::Tensor b) {
    auto size = a.numel();
    auto out = torch::zeros_like(a);

    const int block_size = 256;
    const int num_blocks = (size + block_size - 1) / block_size;

    elementwise_add_kernel<<<num_blocks, block_size>>>(a.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(), size);

    return out;
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
