#include <cuda_runtime.h>

#define T 32
#define R 8

__global__ void transpose_tiled(const float* __restrict__ a, float* __restrict__ b, int m, int n) {
    __shared__ float s[T][T + 1];
    int bx = blockIdx.x * T;
    int by = blockIdx.y * T;
    int col = bx + threadIdx.x;
    int row = by + threadIdx.y;
    for (int i = 0; i < T; i += R) {
        if (col < n && row + i < m) {
            s[threadIdx.y + i][threadIdx.x] = a[(row + i) * n + col];
        }
    }
    __syncthreads();
    col = by + threadIdx.x;
    row = bx + threadIdx.y;
    for (int i = 0; i < T; i += R) {
        if (col < m && row + i < n) {
            b[(row + i) * m + col] = s[threadIdx.x][threadIdx.y + i];
        }
    }
}

void launch_transpose(const float* a, float* b, int m, int n, cudaStream_t stream) {
    dim3 block(T, R);
    dim3 grid((n + T - 1) / T, (m + T - 1) / T);
    transpose_tiled<<<grid, block, 0, stream>>>(a, b, m, n);
}
