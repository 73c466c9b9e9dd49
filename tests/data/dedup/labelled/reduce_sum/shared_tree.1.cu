#include <cuda_runtime.h>

// Block-wide sum in shared memory, halving the active threads each step; one atomic per block.
__global__ void reduce_sum(const float* __restrict__ in, float* out, int n) {
    __shared__ float sdata[256];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }
    if (tid == 0) atomicAdd(out, sdata[0]);
}

void launch_reduce(const float* in, float* out, int n, cudaStream_t stream) {
    const int threads = 256;
    int blocks = (n + threads - 1) / threads;
    cudaMemsetAsync(out, 0, sizeof(float), stream);
    reduce_sum<<<blocks, threads, 0, stream>>>(in, out, n);
}
