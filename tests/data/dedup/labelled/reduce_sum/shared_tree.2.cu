#include <cuda_runtime.h>

__global__ void block_sum_kernel(const float* __restrict__ x, float* result, int size) {
    __shared__ float buf[512];
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int lane = threadIdx.x;
    buf[lane] = (idx < size) ? x[idx] : 0.0f;
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
    const int threads = 512;
    int blocks = (size + threads - 1) / threads;
    cudaMemsetAsync(result, 0, sizeof(float), stream);
    block_sum_kernel<<<blocks, threads, 0, stream>>>(x, result, size);
}
