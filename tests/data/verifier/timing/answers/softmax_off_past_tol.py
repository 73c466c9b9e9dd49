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
    """WRONG near the tolerance, the same at every call: each row's first value is off by 3e-4 (fp32's atol is 1e-4).
    Verdict: FAIL_MISMATCH, not flagged NONDETERMINISTIC: the failed check made once more gives the same outputs bit
    for bit (rules.RECHECK_NEAR)."""

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        rows, cols = x.shape
        softmax_kernel[(rows,)](x, y, cols, 3e-4, BLOCK=triton.next_power_of_2(cols))
        return y
