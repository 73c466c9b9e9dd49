#include <cuda_runtime.h>

__global__ void transpose_kernel(const float* __restrict__ a, float* __restrict__ b, int m, int n) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < m && col < n) {
        const float v = a[row * n + col];
        b[col * m + row] = v;
    }
}

void launch_transpose(const float* a, float* b, int m, int n, cudaStream_t stream) {
    dim3 block(32, 8);
    dim3 grid((n + block.x - 1) / block.x, (m + block.y - 1) / block.y);
    transpose_kernel<<<grid, block, 0, stream>>>(a, b, m, n);
}
