#include <cuda_runtime.h>

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transpose_shared(const float* __restrict__ src, float* __restrict__ dst, int height, int width) {
    __shared__ float buf[TILE_DIM][TILE_DIM + 1];
    int xi = blockIdx.x * TILE_DIM + threadIdx.x;
    int yi = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int k = 0; k < TILE_DIM; k += BLOCK_ROWS)
        if (xi < width && yi + k < height)
            buf[threadIdx.y + k][threadIdx.x] = src[(yi + k) * width + xi];
    __syncthreads();
    // swap the block indices for the write
    xi = blockIdx.y * TILE_DIM + threadIdx.x;
    yi = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int k = 0; k < TILE_DIM; k += BLOCK_ROWS)
        if (xi < height && yi + k < width)
            dst[(yi + k) * height + xi] = buf[threadIdx.x][threadIdx.y + k];
}

void launch_transpose(const float* src, float* dst, int height, int width, cudaStream_t stream) {
    dim3 grid((width + TILE_DIM - 1) / TILE_DIM, (height + TILE_DIM - 1) / TILE_DIM);
    dim3 block(TILE_DIM, BLOCK_ROWS);
    transpose_shared<<<grid, block, 0, stream>>>(src, dst, height, width);
}
