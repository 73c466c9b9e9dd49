#!/usr/bin/env python3
"""Writes N distinct .cu files: variants of three real kernel shapes (elementwise, block reduction,
shared-memory tiled matmul) with different block sizes, unrolls, dtypes and activations, so that every
file is a different compile (no two sources are byte-identical) while staying realistic."""
import itertools
import os
import sys

ACTS = {
    "relu": "v > 0.f ? v : 0.f",
    "gelu": "0.5f * v * (1.f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)))",
    "silu": "v / (1.f + __expf(-v))",
    "tanh": "tanhf(v)",
    "sigmoid": "1.f / (1.f + __expf(-v))",
}

ELEMENTWISE = """#include <cuda_fp16.h>
// elementwise {act}, {vec}-wide, unroll {unroll}
__device__ __forceinline__ float act_{idx}(float v) {{ return {expr}; }}

extern "C" __global__ void __launch_bounds__({block}) ew_{idx}(const float* __restrict__ x, float* __restrict__ y,
                                                       float alpha, long long n)
{{
    long long base = ((long long)blockIdx.x * {block} + threadIdx.x) * {vec} * {unroll};
#pragma unroll
    for (int u = 0; u < {unroll}; ++u) {{
        long long i = base + (long long)u * {vec};
        if (i + {vec} <= n) {{
#pragma unroll
            for (int k = 0; k < {vec}; ++k) y[i + k] = alpha * act_{idx}(x[i + k]);
        }} else {{
            for (long long k = i; k < n; ++k) y[k] = alpha * act_{idx}(x[k]);
        }}
    }}
}}
"""

REDUCTION = """// block reduction ({op}), {block} threads, {items} items per thread
__device__ __forceinline__ float warp_{idx}(float v)
{{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v = {combine_shfl};
    return v;
}}

extern "C" __global__ void __launch_bounds__({block}) reduce_{idx}(const float* __restrict__ x, float* __restrict__ out,
                                                           int cols)
{{
    __shared__ float partial[{block} / 32];
    const float* row = x + (long long)blockIdx.x * cols;
    float acc = {identity};
    for (int c = threadIdx.x; c < cols; c += {block} * {items}) {{
#pragma unroll
        for (int k = 0; k < {items}; ++k) {{
            int j = c + k * {block};
            if (j < cols) acc = {combine};
        }}
    }}
    acc = warp_{idx}(acc);
    if ((threadIdx.x & 31) == 0) partial[threadIdx.x >> 5] = acc;
    __syncthreads();
    if (threadIdx.x < 32) {{
        float v = threadIdx.x < {block} / 32 ? partial[threadIdx.x] : {identity};
        v = warp_{idx}(v);
        if (threadIdx.x == 0) out[blockIdx.x] = v;
    }}
}}
"""

MATMUL = """// tiled matmul, {tile}x{tile} tiles, {tm} outputs per thread along M
extern "C" __global__ void mm_{idx}(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                                   int M, int N, int K)
{{
    __shared__ float As[{tile} * {tm}][{tile} + {pad}];
    __shared__ float Bs[{tile}][{tile} + {pad}];
    const int col = blockIdx.x * {tile} + threadIdx.x;
    const int row0 = blockIdx.y * {tile} * {tm} + threadIdx.y;
    float acc[{tm}] = {{0.f}};
    for (int t = 0; t < K; t += {tile}) {{
#pragma unroll
        for (int r = 0; r < {tm}; ++r) {{
            int row = row0 + r * {tile};
            As[threadIdx.y + r * {tile}][threadIdx.x] = (row < M && t + threadIdx.x < K) ? A[(long long)row * K + t + threadIdx.x] : 0.f;
        }}
        Bs[threadIdx.y][threadIdx.x] = (t + threadIdx.y < K && col < N) ? B[(long long)(t + threadIdx.y) * N + col] : 0.f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < {tile}; ++k) {{
            float b = Bs[k][threadIdx.x];
#pragma unroll
            for (int r = 0; r < {tm}; ++r) acc[r] += As[threadIdx.y + r * {tile}][k] * b;
        }}
        __syncthreads();
    }}
#pragma unroll
    for (int r = 0; r < {tm}; ++r) {{
        int row = row0 + r * {tile};
        if (row < M && col < N) C[(long long)row * N + col] = {epilogue};
    }}
}}
"""

REDUCE_OPS = {
    "sum": ("0.f", "acc + row[j]", "v + __shfl_xor_sync(0xffffffffu, v, o)"),
    "max": ("-3.402823466e+38f", "fmaxf(acc, row[j])", "fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o))"),
    "sumsq": ("0.f", "acc + row[j] * row[j]", "v + __shfl_xor_sync(0xffffffffu, v, o)"),
}


def variants():
    ew = itertools.product(ACTS.items(), (128, 256, 512), (1, 2, 4), (1, 2, 4))
    red = itertools.product(REDUCE_OPS.items(), (128, 256, 512, 1024), (1, 2, 4, 8))
    mm = itertools.product((8, 16, 32), (1, 2, 4), (0, 1), ("acc[r]", "fmaxf(acc[r], 0.f)", "acc[r] * 0.5f"))
    pools = [
        ("ew", ew, lambda v, i: ELEMENTWISE.format(idx=i, act=v[0][0], expr=v[0][1], block=v[1], vec=v[2], unroll=v[3])),
        ("red", red, lambda v, i: REDUCTION.format(idx=i, op=v[0][0], identity=v[0][1][0], combine=v[0][1][1],
                                                   combine_shfl=v[0][1][2], block=v[1], items=v[2])),
        ("mm", mm, lambda v, i: MATMUL.format(idx=i, tile=v[0], tm=v[1], pad=v[2], epilogue=v[3])),
    ]
    pools = [(name, list(it), fmt) for name, it, fmt in pools]
    i = 0
    # Round-robin over the three families, cycling their parameter grids (the index keeps names unique).
    while True:
        for name, grid, fmt in pools:
            yield name, fmt(grid[i % len(grid)], i)
            i += 1


def main():
    out, count = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 500
    os.makedirs(out, exist_ok=True)
    for n, (family, src) in zip(range(count), variants()):
        with open(os.path.join(out, f"k{n:04d}_{family}.cu"), "w") as f:
            f.write(src)


if __name__ == "__main__":
    main()
