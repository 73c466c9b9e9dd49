#include <cuda_runtime.h>

__inline__ __device__ float warp_reduce_sum(float val) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        val += __shfl_down_sync(0xffffffff, val, offset);
    return val;
}

// Grid-stride accumulation per thread, warp shuffles, one shared slot per warp, then the first warp.
__global__ void reduce_sum(const float* __restrict__ in, float* out, int n) {
    __shared__ float warp_sums[32];
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        sum += in[i];
    int lane = threadIdx.x % warpSize;
    int warp = threadIdx.x / warpSize;
    sum = warp_reduce_sum(sum);
    if (lane == 0) warp_sums[warp] = sum;
    __syncthreads();
    sum = (threadIdx.x < blockDim.x / warpSize) ? warp_sums[lane] : 0.0f;
    if (warp == 0) sum = warp_reduce_sum(sum);
    if (threadIdx.x == 0) atomicAdd(out, sum);
}

void launch_reduce(const float* in, float* out, int n, cudaStream_t stream) {
    int blocks = std::min((n + 255) / 256, 1024);
    cudaMemsetAsync(out, 0, sizeof(float), stream);
    reduce_sum<<<blocks, 256, 0, stream>>>(in, out, n);
}
