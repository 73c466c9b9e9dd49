import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softplus_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    # log(1 + exp(x)) = max(x, 0) + log(1 + exp(-|x|)); torch returns x itself above the threshold 20
    y = tl.maximum(x, 0.0) + tl.log(1.0 + tl.exp(-tl.abs(x)))
    y = tl.where(x > 20.0, x, y)
    tl.store(y_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    """Softplus in the overflow-free form."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        softplus_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y
