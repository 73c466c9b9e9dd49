/* sieve:launch
{
  "format": "sieve-raw-cuda/1",
  "inputs": ["x"],
  "outputs": [{"name": "y", "shape": ["x.shape[0]", "x.shape[1]"], "dtype": "fp32"}],
  "constants": {"rows": "x.shape[0]", "cols": "x.shape[1]", "threads": 128},
  "launches": [
    {
      "kernel": "rmsnorm",
      "grid": ["rows"],
      "block": ["threads"],
      "shared_bytes": "threads / 32 * 4",
      "args": [{"input": "x"}, {"output": "y"}, {"scalar": "cols", "type": "i32"}, {"scalar": 1e-5, "type": "f32"}]
    }
  ]
}
*/
// A wrong RMSNorm: the sum of squares instead of their mean.
extern "C" __global__ void rmsnorm(const float *__restrict__ x, float *__restrict__ y, int cols, float eps)
{
    extern __shared__ float partial[];
    const float *row = x + (long long)blockIdx.x * cols;
    float acc = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        acc += row[c] * row[c];
    for (int o = 16; o > 0; o >>= 1)
        acc += __shfl_xor_sync(0xffffffffu, acc, o);
    if ((threadIdx.x & 31) == 0)
        partial[threadIdx.x >> 5] = acc;
    __syncthreads();
    float total = 0.f;
    for (int w = 0; w < (int)(blockDim.x >> 5); ++w)
        total += partial[w];
    const float scale = rsqrtf(total + eps);
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        y[(long long)blockIdx.x * cols + c] = row[c] * scale;
}
