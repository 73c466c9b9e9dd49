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
    tl.store(y_ptr + row * n_cols + cols, y + jitter * (cols == 0), mask=mask)


class ModelNew(nn.Module):
    """WRONG near the tolerance, and not the same from call to call: each row's first value is off by 2e-4..6e-4
    (fp32's atol is 1e-4), drawn from the clock at each call (float atomics' order on the GPU, past the tolerance).
    Verdict: FAIL_MISMATCH, flagged NONDETERMINISTIC: the failed check, made once more on the same inputs, gives
    other outputs (rules.RECHECK_NEAR)."""

    calls = 0

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        rows, cols = x.shape
        # a step a call in the order 389 * n mod 997 from a start the clock draws (as nondeterministic_softmax.py):
        # any two of a sample's first 997 calls differ; the clock alone left two alike one time in 997
        if ModelNew.calls == 0:
            ModelNew.calls = time.perf_counter_ns() // 1000 % 997
        ModelNew.calls += 1
        jitter = (2.0 + (ModelNew.calls * 389 % 997) / 250) * 1e-4
        softmax_kernel[(rows,)](x, y, cols, jitter, BLOCK=triton.next_power_of_2(cols))
        return y
