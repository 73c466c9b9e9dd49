#include <cuda_runtime.h>

__global__ void transpose_naive(const float* src, float* dst, int height, int width) {
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x < width && y < height)
        dst[x * height + y] = src[y * width + x];
}

void launch_transpose(const float* src, float* dst, int height, int width, cudaStream_t stream) {
    dim3 threads(16, 16);
    dim3 blocks((width + 15) / 16, (height + 15) / 16);
    transpose_naive<<<blocks, threads, 0, stream>>>(src, dst, height, width);
}
