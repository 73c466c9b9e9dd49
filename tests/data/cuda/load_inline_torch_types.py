import torch
from torch.utils.cpp_extension import load_inline

# The kernel itself uses a torch type (at::Half): NVRTC cannot judge it without torch's headers.
source = """
#include <torch/extension.h>
#include <ATen/ATen.h>

template <typename scalar_t>
__global__ void scale_kernel(scalar_t* x, at::Half s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * static_cast<scalar_t>(s);
}

torch::Tensor scale(torch::Tensor x) {
    AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "scale", ([&] {
        scale_kernel<scalar_t><<<(x.numel() + 255) / 256, 256>>>(x.data_ptr<scalar_t>(), at::Half(2.0f), x.numel());
    }));
    return x;
}
"""

mod = load_inline("scale_ext", "torch::Tensor scale(torch::Tensor x);", source, functions=["scale"])
