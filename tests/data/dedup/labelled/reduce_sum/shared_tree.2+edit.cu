#include <cuda_runtime.h>

__global__ void block_sum_kernel(const float* __restrict__ x, float* result, int size) {
    __shared__ float buf[512];
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int lane = threadIdx.x;
    float v = 0.0f;
    if (idx < size) v = x[idx];
    buf[lane] = v;
    __syncthreads();
    // tree reduction
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (lane < stride) buf[lane] += buf[lane + stride];
        __syncthreads();
    }
    if (lane == 0) {
        atomicAdd(result, buf[0]);
    }
}

void launch_reduce(const float* x, float* result, int size, cudaStream_t stream) {
    int blocks = (size + 511) / 512;
    cudaMemsetAsync(result, 0, sizeof(float), stream);
    block_sum_kernel<<<blocks, 512, 0, stream>>>(x, result, size);
}
