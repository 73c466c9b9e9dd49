"""RMSNorm, one program per row (a cosmetic copy of variant A)."""
import torch
import triton
import triton.language as tl


@triton.jit
def fused_rms_norm_kernel(inp, weight, out, n_cols, epsilon, TILE: tl.constexpr):
    """Each program normalises one row held in a single tile."""
    r = tl.program_id(0)
    offsets = tl.arange(0, TILE)
    in_bounds = offsets < n_cols
    # load the row and accumulate in fp32
    v = tl.load(inp + r * n_cols + offsets, mask=in_bounds, other=0.0).to(tl.float32)
    inv = tl.rsqrt(tl.sum(v * v, axis=0) / n_cols + epsilon)
    g = tl.load(weight + offsets, mask=in_bounds, other=0.0).to(tl.float32)
    tl.store(out + r * n_cols + offsets, (v * inv * g).to(tl.float16), mask=in_bounds)


def rmsnorm(x, w, eps=1e-5):
    rows, cols = x.shape
    result = torch.empty_like(x)
    fused_rms_norm_kernel[(rows,)](x, w, result, cols, eps, TILE=512)  # smaller tile
    return result
