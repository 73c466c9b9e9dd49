"""Red team, stage 0, legitimate: a kernel chosen by a conditional expression on the shape, views and casts as glue."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(y_ptr + row * n_cols + cols, e / tl.sum(e, axis=0), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        orig = x.shape
        x2 = x.reshape(-1, orig[-1]).contiguous()
        y = torch.empty_like(x2)
        kernel = softmax_kernel if x2.shape[-1] <= 4096 else softmax_kernel
        with torch.no_grad():
            kernel[(x2.shape[0],)](x2, y, x2.shape[1], BLOCK=triton.next_power_of_2(x2.shape[1]))
        return y.view(orig).to(x.dtype)
