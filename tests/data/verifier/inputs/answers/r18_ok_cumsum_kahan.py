import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def cumsum_kahan_kernel(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    # chunked inclusive scan; the carry between chunks is Kahan-compensated so that long rows (KernelBench's
    # 4000 columns) do not drift
    row = tl.program_id(0)
    base = row * N
    carry = tl.zeros((), tl.float32)
    comp = tl.zeros((), tl.float32)
    for c0 in range(0, N, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        m = cols < N
        x = tl.load(x_ptr + base + cols, mask=m, other=0.0)
        local = tl.cumsum(x, axis=0)
        tl.store(y_ptr + base + cols, carry + local, mask=m)
        # Kahan step: carry += sum(x), keeping the lost low-order bits in comp
        yk = tl.sum(x, axis=0) - comp
        t = carry + yk
        comp = (t - carry) - yk
        carry = t


class ModelNew(nn.Module):
    """Inclusive cumsum along dim 1, chunks of 64, Kahan-compensated carry."""

    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        x = x.contiguous()
        M, N = x.shape
        y = torch.empty_like(x)
        cumsum_kahan_kernel[(M,)](x, y, N, BLOCK=64)
        return y
