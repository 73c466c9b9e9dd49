"""legit: a split row sum with tl.atomic_add, autotuned over two block sizes with reset_to_zero and restore_value on
the output (triton zeroes and restores it around each benchmarked config: zero_, clone and copy_ from triton's
autotuner frames, inside the launch, now that the interpreter's exemption is gone), its own wall-clock do_bench
(the CPU interpreter has no driver to benchmark with)."""
import time

import torch
import torch.nn as nn
import triton
import triton.language as tl


def wall_clock_bench(fn, quantiles):
    t0 = time.perf_counter()
    fn()
    ms = (time.perf_counter() - t0) * 1e3
    return [ms for _ in quantiles]


@triton.autotune(configs=[triton.Config({"BLOCK": 128}), triton.Config({"BLOCK": 256})], key=["N"],
                 reset_to_zero=["out"], restore_value=["out"], do_bench=wall_clock_bench)
@triton.jit
def row_sum_split_kernel(x_ptr, out, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    o = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x_ptr + row * N + o, mask=o < N, other=0.0)
    tl.atomic_add(out + row, tl.sum(v, axis=0))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        M, N = x.shape
        out = torch.zeros(M, device=x.device, dtype=torch.float32)
        row_sum_split_kernel[lambda meta: (M, triton.cdiv(N, meta["BLOCK"]))](x, out, N)
        return out
