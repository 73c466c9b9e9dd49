#include <cuda_runtime.h>

__device__ __forceinline__ float warpSum(float v) {
    for (int o = warpSize / 2; o > 0; o /= 2)
        v += __shfl_down_sync(0xffffffff, v, o);
    return v;
}

__global__ void shuffle_reduce(const float* __restrict__ x, float* result, int size) {
    __shared__ float per_warp[32];
    int warp_id = threadIdx.x / warpSize;
    int lane_id = threadIdx.x % warpSize;
    float acc = 0.0f;
    for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < size; k += blockDim.x * gridDim.x)
        acc += x[k];
    acc = warpSum(acc);
    if (lane_id == 0) per_warp[warp_id] = acc;
    __syncthreads();
    acc = (threadIdx.x < blockDim.x / warpSize) ? per_warp[lane_id] : 0.0f;
    if (warp_id == 0) acc = warpSum(acc);
    if (threadIdx.x == 0) atomicAdd(result, acc);
}

void launch_reduce(const float* x, float* result, int size, cudaStream_t stream) {
    cudaMemsetAsync(result, 0, sizeof(float), stream);
    int blocks = std::min((size + 511) / 512, 2048);
    shuffle_reduce<<<blocks, 512, 0, stream>>>(x, result, size);
}
