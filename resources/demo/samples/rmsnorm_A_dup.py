import torch
import torch.nn as nn
import triton
import triton.language as tl


# Fused RMS normalisation: each program instance owns a single row of the input.
@triton.jit
def _rms_norm_row(inp, gain, out, n_cols, epsilon, TILE: tl.constexpr):
    r = tl.program_id(0)
    idx = tl.arange(0, TILE)
    in_bounds = idx < n_cols
    # accumulate in fp32 for accuracy
    v = tl.load(inp + r * n_cols + idx, mask=in_bounds, other=0.0).to(tl.float32)
    inv = tl.rsqrt(tl.sum(v * v, axis=0) / n_cols + epsilon)
    g = tl.load(gain + idx, mask=in_bounds, other=0.0).to(tl.float32)
    tl.store(out + r * n_cols + idx, (v * inv * g).to(out.dtype.element_ty), mask=in_bounds)


class ModelNew(nn.Module):
    def __init__(self, n, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(n))

    def forward(self, x):
        x = x.contiguous()
        rows, cols = x.shape
        out = torch.empty_like(x)
        tile = max(triton.next_power_of_2(cols), 1024)  # a wider tile than needed
        _rms_norm_row[(rows,)](x, self.weight, out, cols, self.eps, TILE=tile)
        return out
