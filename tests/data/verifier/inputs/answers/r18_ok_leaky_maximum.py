import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def leaky_kernel(x_ptr, out_ptr, n_elements, negative_slope, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    # for 0 <= slope < 1, leaky_relu(x) = max(x, slope * x)
    out = tl.maximum(x, x * negative_slope)
    tl.store(out_ptr + offsets, out, mask=mask)


class ModelNew(nn.Module):
    """LeakyReLU as max(x, slope * x), fp32."""

    def __init__(self, negative_slope: float = 0.01):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)
        leaky_kernel[grid](x, out, n, self.negative_slope, BLOCK_SIZE=512)
        return out
