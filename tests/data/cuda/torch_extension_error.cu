// torch_extension.cu with a missing semicolon on line 27, inside a template kernel (error shows at line 28).
#include <torch/extension.h>
#include <cuda.h>
#include <cuda_runtime.h>
#include <vector>
#include <cfloat>

#define CHECK_CUDA(x) TORCH_CHECK(x.device().is_cuda(), #x " must be a CUDA tensor")
#define CHECK_CONTIGUOUS(x) TORCH_CHECK(x.is_contiguous(), #x " must be contiguous")
#define CHECK_INPUT(x) CHECK_CUDA(x); CHECK_CONTIGUOUS(x)

namespace {
constexpr int kWarp = 32;

template <typename scalar_t>
__device__ __forceinline__ scalar_t warp_max(scalar_t v) {
    for (int o = kWarp / 2; o > 0; o >>= 1)
        v = fmaxf(v, __shfl_down_sync(0xffffffff, v, o));
    return v;
}
} // namespace

template <typename scalar_t>
__global__ void row_max_kernel(const scalar_t* __restrict__ x, scalar_t* __restrict__ out, int cols) {
    scalar_t m = -FLT_MAX;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        m = fmaxf(m, x[blockIdx.x * cols + c])
    m = warp_max(m);
    if (threadIdx.x == 0) out[blockIdx.x] = m;
}

struct LaunchConfig {
    int threads;
    int blocks;
};

torch::Tensor row_max(torch::Tensor x) {
    CHECK_INPUT(x);
    auto out = torch::empty({x.size(0)}, x.options());
    LaunchConfig cfg{32, static_cast<int>(x.size(0))};
    AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "row_max", ([&] {
        row_max_kernel<scalar_t><<<cfg.blocks, cfg.threads>>>(x.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), x.size(1));
    }));
    return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("forward", &row_max, "row max (CUDA)");
}
