/* sieve:launch
{
  "format": "sieve-raw-cuda/1",
  "inputs": ["x"],
  "outputs": [{"name": "y", "shape": ["x.numel"], "dtype": "fp32"}],
  "launches": [{"kernel": "spin", "grid": [1], "block": [32], "args": [{"input": "x"}, {"output": "y"}]}]
}
*/
// Two misbehaving kernels for the launcher's isolation tests: one never ends, one writes to address 0.
extern "C" __global__ void spin(const float *x, float *y)
{
    volatile float v = x[0];
    while (v == v)
        v = v + 0.f;
    y[0] = v;
}

extern "C" __global__ void fault(const float *x, float *y)
{
    // An address the compiler cannot prove null (a store through a literal null is optimised away).
    volatile float *bad = reinterpret_cast<float *>(static_cast<unsigned long long>(x[0] * 0.f) + 64);
    bad[threadIdx.x] = x[0];
    y[0] = 1.f;
}
