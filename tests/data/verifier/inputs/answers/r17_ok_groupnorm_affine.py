import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def groupnorm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, C, L, G, eps, BLOCK: tl.constexpr):
    # one program per (batch, group): the group's (C // G) * L elements are contiguous
    pid = tl.program_id(0)
    bi = pid // G
    g = pid % G
    cpg = C // G
    n = cpg * L
    base = bi * C * L + g * n
    s = tl.zeros((BLOCK,), dtype=tl.float32)
    for i0 in range(0, n, BLOCK):
        idx = i0 + tl.arange(0, BLOCK)
        s += tl.load(x_ptr + base + idx, mask=idx < n, other=0.0)
    mean = tl.sum(s, axis=0) / n
    q = tl.zeros((BLOCK,), dtype=tl.float32)
    for i0 in range(0, n, BLOCK):
        idx = i0 + tl.arange(0, BLOCK)
        msk = idx < n
        d = tl.where(msk, tl.load(x_ptr + base + idx, mask=msk, other=0.0) - mean, 0.0)
        q += d * d
    rstd = 1.0 / tl.sqrt(tl.sum(q, axis=0) / n + eps)
    for i0 in range(0, n, BLOCK):
        idx = i0 + tl.arange(0, BLOCK)
        msk = idx < n
        c = g * cpg + idx // L
        x = tl.load(x_ptr + base + idx, mask=msk, other=0.0)
        w = tl.load(w_ptr + c, mask=msk, other=0.0)
        bb = tl.load(b_ptr + c, mask=msk, other=0.0)
        tl.store(y_ptr + base + idx, (x - mean) * rstd * w + bb, mask=msk)


class ModelNew(nn.Module):
    """Correct: two-pass GroupNorm per (batch, group), then the per-channel affine."""

    def __init__(self, num_groups: int, num_channels: int):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups=num_groups, num_channels=num_channels)

    def forward(self, x):
        x = x.contiguous()
        B, C, L = x.shape
        G = self.gn.num_groups
        y = torch.empty_like(x)
        groupnorm_kernel[(B * G,)](x, self.gn.weight, self.gn.bias, y, C, L, G, self.gn.eps, BLOCK=256)
        return y
