"""legit: vector add with triton.autotune over two block sizes (its own wall-clock do_bench, so the CPU interpreter,
which has no driver to benchmark with, can choose) and a heuristics-derived EVEN flag (no mask when the block
divides the size)."""
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


@triton.autotune(configs=[triton.Config({"BLOCK": 128}), triton.Config({"BLOCK": 512})], key=["n"],
                 do_bench=wall_clock_bench)
@triton.heuristics({"EVEN": lambda args: args["n"] % args["BLOCK"] == 0})
@triton.jit
def add_kernel(a, b, c, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN:
        tl.store(c + o, tl.load(a + o) + tl.load(b + o))
    else:
        m = o < n
        tl.store(c + o, tl.load(a + o, mask=m) + tl.load(b + o, mask=m), mask=m)


class ModelNew(nn.Module):
    def forward(self, a, b):
        c = torch.empty_like(a)
        n = c.numel()
        add_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](a, b, c, n)
        return c
