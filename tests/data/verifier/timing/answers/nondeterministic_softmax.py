import time

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, jitter, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    y = e / tl.sum(e, axis=0)
    tl.store(y_ptr + row * n_cols + cols, y * (1.0 + jitter), mask=mask)


class ModelNew(nn.Module):
    """CORRECT within the tolerance, but not the same from call to call: every value is off by a relative few 1e-5
    that changes at each call (a stand-in for float atomics' order on the GPU). Verdict: PASS, flagged
    NONDETERMINISTIC: a timed call's output is not bit for bit its check's on the same inputs."""

    calls = 0

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        rows, cols = x.shape
        # relative 4e-6..4.4e-5 in steps of 4e-8, a step a call in the order 389 * n mod 997 (n the call's number,
        # mixed with the clock's microseconds once): any two of a sample's first 997 calls differ by a step or more,
        # and a step moves some of the 300 values by a float32 rounding. A draw from the clock alone left two calls
        # alike about one time in 300 (a CI run flagged nothing, 2026-12-07)
        if ModelNew.calls == 0:
            ModelNew.calls = time.perf_counter_ns() // 1000 % 997
        ModelNew.calls += 1
        jitter = (ModelNew.calls * 389 % 997 + 100) * 4e-8
        softmax_kernel[(rows,)](x, y, cols, jitter, BLOCK=triton.next_power_of_2(cols))
        return y
