#include <cuda_runtime.h>

__global__ void transpose_naive(const float* __restrict__ src, float* __restrict__ dst, int height, int width) {
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (y < height && x < width)
        dst[x * height + y] = src[y * width + x];
}

void launch_transpose(const float* src, float* dst, int height, int width, cudaStream_t stream) {
    dim3 threads(32, 8);
    dim3 blocks((width + threads.x - 1) / threads.x, (height + threads.y - 1) / threads.y);
    transpose_naive<<<blocks, threads, 0, stream>>>(src, dst, height, width);
}
