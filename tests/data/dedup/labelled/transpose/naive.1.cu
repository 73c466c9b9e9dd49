#include <cuda_runtime.h>

// out[c][r] = in[r][c], one thread per element (uncoalesced writes)
__global__ void transpose(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) {
        out[c * rows + r] = in[r * cols + c];
    }
}

void launch_transpose(const float* in, float* out, int rows, int cols, cudaStream_t stream) {
    dim3 block(32, 8);
    dim3 grid((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
    transpose<<<grid, block, 0, stream>>>(in, out, rows, cols);
}
