"""a persistent kernel: a fixed grid loops over the rows; the output allocated with new_empty."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_rows, n_cols, PROGRAMS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    for row in range(pid, n_rows, PROGRAMS):
        x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=-float("inf"))
        x = x - tl.max(x, axis=0)
        e = tl.exp(x)
        tl.store(y_ptr + row * n_cols + cols, e / tl.sum(e, axis=0), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        y = x.new_empty(x.shape)
        softmax_kernel[(2,)](x, y, x.shape[0], x.shape[1], PROGRAMS=2, BLOCK=triton.next_power_of_2(x.shape[1]))
        return y
