"""a real Triton softmax, with views, contiguous, empty_like, reshape and a strided output."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, stride_y, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(y_ptr + row * stride_y + cols, e / tl.sum(e, axis=0), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        shape = x.shape
        x2 = x.reshape(-1, shape[-1]).contiguous()
        rows, cols = x2.shape
        big = torch.empty(rows, cols + 7, dtype=x.dtype, device=x.device)  # a padded, non-contiguous output
        y = big[:, :cols]
        softmax_kernel[(rows,)](x2, y, cols, big.stride(0), BLOCK=triton.next_power_of_2(cols))
        return y.view(shape) if y.is_contiguous() else y.reshape(shape)
