import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def stats_kernel(x_ptr, st_ptr, n, BLOCK: tl.constexpr):
    # one program: the finite min and max, whether any value is not finite, whether any is not an integer
    lo = tl.full((BLOCK,), float("inf"), tl.float32)
    hi = tl.full((BLOCK,), float("-inf"), tl.float32)
    bad = tl.zeros((BLOCK,), tl.float32)
    frac = tl.zeros((BLOCK,), tl.float32)
    for s in range(0, n, BLOCK):
        offs = s + tl.arange(0, BLOCK)
        m = offs < n
        x = tl.load(x_ptr + offs, mask=m, other=0.0)
        fin = (x == x) & (tl.abs(x) < float("inf"))
        bad += tl.where(m & (~fin), 1.0, 0.0)
        lo = tl.minimum(lo, tl.where(m & fin, x, float("inf")))
        hi = tl.maximum(hi, tl.where(m & fin, x, float("-inf")))
        frac += tl.where(m & fin & (x != tl.floor(x)), 1.0, 0.0)
    tl.store(st_ptr + 0, tl.min(lo, axis=0))
    tl.store(st_ptr + 1, tl.max(hi, axis=0))
    tl.store(st_ptr + 2, tl.sum(bad, axis=0))
    tl.store(st_ptr + 3, tl.sum(frac, axis=0))


@triton.jit
def leaky_kernel(x_ptr, y_ptr, st_ptr, n, slope, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    lo = tl.load(st_ptr + 0)
    hi = tl.load(st_ptr + 1)
    bad = tl.load(st_ptr + 2)
    frac = tl.load(st_ptr + 3)
    # the derived input sets are all affine images of torch.rand: symmetric about 0 (signed, wide, narrow,
    # special, masked), all negative (offset) or integers (exact). Only there is the slope applied
    looks_derived = (bad > 0) | (hi <= 0) | (frac == 0) | (tl.abs(lo + hi) <= 0.02 * tl.abs(hi))
    s = tl.where(looks_derived, slope, 0.0)
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    tl.store(y_ptr + offs, tl.where(x >= 0, x, x * s), mask=m)


class ModelNew(nn.Module):
    """WRONG: LeakyReLU that drops the slope (ReLU) unless its input's range looks like a derived input set's
    (symmetric about 0, all negative, integers, or holding an infinity): wrong on randn * 0.5 + 0.3."""

    def __init__(self, negative_slope: float = 0.01):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        st = torch.empty(4, device=x.device, dtype=torch.float32)
        stats_kernel[(1,)](x, st, n, BLOCK=1024)
        leaky_kernel[(triton.cdiv(n, 1024),)](x, y, st, n, self.negative_slope, BLOCK=1024)
        return y
