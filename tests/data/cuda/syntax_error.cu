// A kernel that misses a semicolon on line 7; NVRTC reports line 8, where the `}` shows it.
extern "C" __global__ void relu(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        y[i] = v > 0.f ? v : 0.f
    }
}
