import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def hardtanh_kernel(x_ptr, y_ptr, n, lo, hi, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    # comparisons, not min/max: NaN and -0.0 pass through unchanged, as torch's clamp does
    y = tl.where(x < lo, lo, tl.where(x > hi, hi, x))
    tl.store(y_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    """Correct: HardTanh with where(): keeps NaN and -0.0; blocks of 512 with a
    masked tail."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        hardtanh_kernel[(triton.cdiv(n, 512),)](x, y, n, -1.0, 1.0, BLOCK=512)
        return y
