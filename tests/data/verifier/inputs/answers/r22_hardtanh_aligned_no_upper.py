import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def hardtanh_body_kernel(x_ptr, y_ptr, BLOCK: tl.constexpr):
    # unmasked fast path for whole blocks; the upper clamp is missing
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, tl.where(x < -1.0, -1.0, x))


@triton.jit
def hardtanh_masked_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    y = tl.where(x < -1.0, -1.0, tl.where(x > 1.0, 1.0, x))
    tl.store(y_ptr + offs, y, mask=m)


class ModelNew(nn.Module):
    """WRONG: HardTanh whose unmasked path (numel % 1024 == 0) clamps only below: right on [-1, 1] (torch.rand and
    the signed set), wrong above 1 (the wide set), which is checked only at the odd derived shape."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        if n % BLOCK == 0:
            hardtanh_body_kernel[(n // BLOCK,)](x, y, BLOCK=BLOCK)
        else:
            hardtanh_masked_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
        return y
