/* sieve:launch
{
  "format": "sieve-raw-cuda/1",
  "inputs": ["x"],
  "outputs": [{"name": "y", "shape": ["x.shape[0]", "x.shape[1]"], "dtype": "fp32"}],
  "launches": [{"kernel": "fault", "grid": [1], "block": [32], "args": [{"input": "x"}, {"output": "y"}]}]
}
*/
// Writes through a null pointer: an illegal address that must cost only the launch child.
extern "C" __global__ void fault(const float *x, float *y)
{
    // An address the compiler cannot prove null (a store through a literal null is optimised away).
    volatile float *bad = reinterpret_cast<float *>(static_cast<unsigned long long>(x[0] * 0.f) + 64);
    bad[threadIdx.x] = x[0];
    y[0] = 1.f;
}
