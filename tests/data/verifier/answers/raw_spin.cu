/* sieve:launch
{
  "format": "sieve-raw-cuda/1",
  "inputs": ["x"],
  "outputs": [{"name": "y", "shape": ["x.shape[0]", "x.shape[1]"], "dtype": "fp32"}],
  "launches": [{"kernel": "spin", "grid": [1], "block": [32], "args": [{"input": "x"}, {"output": "y"}]}]
}
*/
// Never ends: the launch child must be killed at the stage timeout.
extern "C" __global__ void spin(const float *x, float *y)
{
    volatile float v = x[0];
    while (v == v)
        v = v + 0.f;
    y[0] = v;
}
