#include <cuda_runtime.h>

/* warp-level reduction with shuffles */
__inline__ __device__ float reduce_warp(float value) {
    for (int delta = warpSize / 2; delta > 0; delta /= 2) {
        value += __shfl_down_sync(0xffffffff, value, delta);
    }
    return value;
}

__global__ void sum_kernel(const float* input, float* output, int count) {
    __shared__ float shared[32];
    float total = 0.0f;
    int stride = blockDim.x * gridDim.x;
    for (int g = blockIdx.x * blockDim.x + threadIdx.x; g < count; g += stride) {
        total += input[g];
    }
    int lane = threadIdx.x % warpSize;
    int wid = threadIdx.x / warpSize;
    total = reduce_warp(total);
    if (lane == 0) shared[wid] = total;
    __syncthreads();
    total = (threadIdx.x < blockDim.x / warpSize) ? shared[lane] : 0.0f;
    if (wid == 0) total = reduce_warp(total);
    if (threadIdx.x == 0) atomicAdd(output, total);
}

void launch_reduce(const float* input, float* output, int count, cudaStream_t stream) {
    const int threads = 256;
    const int blocks = std::min((count + threads - 1) / threads, 1024);
    cudaMemsetAsync(output, 0, sizeof(float), stream);
    sum_kernel<<<blocks, threads, 0, stream>>>(input, output, count);
}
