#include <cuda_runtime.h>

/* sum of all elements: shared-memory tree per block, then atomicAdd */
__global__ void sum_reduce(const float* __restrict__ input, float* output, int count) {
    __shared__ float partial[128];
    unsigned int t = threadIdx.x;
    unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
    partial[t] = g < count ? input[g] : 0.0f;
    __syncthreads();
    for (unsigned int step = blockDim.x / 2; step > 0; step >>= 1) {
        if (t < step) {
            partial[t] += partial[t + step];
        }
        __syncthreads();
    }
    if (t == 0) atomicAdd(output, partial[0]);
}

void launch_reduce(const float* input, float* output, int count, cudaStream_t stream) {
    const int block = 128;
    const int grid = (count + block - 1) / block;
    cudaMemsetAsync(output, 0, sizeof(float), stream);
    sum_reduce<<<grid, block, 0, stream>>>(input, output, count);
}
