#include <cuda_runtime.h>

/* sum of all elements: shared-memory tree per block, then atomicAdd */
__global__ void sum_reduce(const float* input, float* output, int count) {
    __shared__ float partial[128];
    unsigned int t = threadIdx.x;
    unsigned int g = blockIdx.x * blockDim.x + t;
    partial[t] = g < count ? input[g] : 0.0f;
    __syncthreads();
    for (unsigned int half = blockDim.x / 2; half > 0; half >>= 1) {
        if (t < half) {
            partial[t] = partial[t] + partial[t + half];
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
