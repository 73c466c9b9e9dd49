import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def instnorm_kernel(x_ptr, y_ptr, HW, eps, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    # one program per (batch, channel) plane of HW contiguous elements; Welford-free two passes
    base = tl.program_id(0) * HW
    s = tl.zeros((BLOCK,), dtype=tl.float32)
    for i0 in range(0, HW, BLOCK):
        idx = i0 + tl.arange(0, BLOCK)
        if EVEN:
            s += tl.load(x_ptr + base + idx)
        else:
            s += tl.load(x_ptr + base + idx, mask=idx < HW, other=0.0)
    mean = tl.sum(s, axis=0) / HW
    q = tl.zeros((BLOCK,), dtype=tl.float32)
    for i0 in range(0, HW, BLOCK):
        idx = i0 + tl.arange(0, BLOCK)
        if EVEN:
            d = tl.load(x_ptr + base + idx) - mean
        else:
            msk = idx < HW
            d = tl.where(msk, tl.load(x_ptr + base + idx, mask=msk, other=0.0) - mean, 0.0)
        q += d * d
    rstd = tl.math.rsqrt(tl.sum(q, axis=0) / HW + eps)
    for i0 in range(0, HW, BLOCK):
        idx = i0 + tl.arange(0, BLOCK)
        if EVEN:
            tl.store(y_ptr + base + idx, (tl.load(x_ptr + base + idx) - mean) * rstd)
        else:
            msk = idx < HW
            x = tl.load(x_ptr + base + idx, mask=msk, other=0.0)
            tl.store(y_ptr + base + idx, (x - mean) * rstd, mask=msk)


class ModelNew(nn.Module):
    """Correct: InstanceNorm2d (no affine, no running stats) per plane, two passes, rsqrt(var + eps)."""

    def __init__(self, num_features: int):
        super().__init__()
        self.num_features = num_features
        self.eps = 1e-5

    def forward(self, x):
        x = x.contiguous()
        B, C, H, W = x.shape
        y = torch.empty_like(x)
        BLOCK = 128
        instnorm_kernel[(B * C,)](x, y, H * W, self.eps, BLOCK=BLOCK, EVEN=((H * W) % BLOCK == 0))
        return y
