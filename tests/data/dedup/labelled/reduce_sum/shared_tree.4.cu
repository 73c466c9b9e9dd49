#include <cuda_runtime.h>

__global__ void reduce_kernel(const float* __restrict__ src, float* dst, int n) {
    __shared__ float smem[1024];
    unsigned int gid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int tid = threadIdx.x;
    smem[tid] = (gid < n) ? src[gid] : 0.0f;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            smem[tid] += smem[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        atomicAdd(dst, smem[0]);
}

void launch_reduce(const float* src, float* dst, int n, cudaStream_t stream) {
    int threads = 1024;
    int blocks = (n + threads - 1) / threads;
    cudaMemsetAsync(dst, 0, sizeof(float), stream);
    reduce_kernel<<<blocks, threads, 0, stream>>>(src, dst, n);
}
