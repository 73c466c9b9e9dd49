import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_mean_kernel(x_ptr, m_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
    tl.store(m_ptr + row, tl.sum(x, axis=0) / n_cols)


class ModelNew(nn.Module):
    """One mean per row, returned as an expanded (stride-0) view like the reference's."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        rows, cols = x.shape
        m = torch.empty((rows, 1), device=x.device, dtype=x.dtype)
        row_mean_kernel[(rows,)](x, m, cols, BLOCK=triton.next_power_of_2(cols))
        return m.expand(rows, cols)
