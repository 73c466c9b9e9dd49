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
    tl.store(y_ptr + row * n_cols + cols, y * (1.0 + jitter * (cols == 0)), mask=mask)


class ModelNew(nn.Module):
    """CORRECT within the tolerance, but not the same from call to call: each row's first value is off by a relative
    few 1e-5 drawn from the clock at each call (a stand-in for float atomics' order on the GPU). Verdict: PASS,
    flagged NONDETERMINISTIC: a timed call's output is not bit for bit its check's on the same inputs."""

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        rows, cols = x.shape
        # relative 4e-6..4.4e-5 (4e-8 a step: about three values to a float32 rounding): under the tolerance, and two
        # calls alike one time in 300 (1e-9 a step from 1e-9, mostly under a rounding, left the output unchanged: the
        # flag was missed one CI run in some tens)
        jitter = (time.perf_counter_ns() % 997 + 100) * 4e-8
        softmax_kernel[(rows,)](x, y, cols, jitter, BLOCK=triton.next_power_of_2(cols))
        return y
