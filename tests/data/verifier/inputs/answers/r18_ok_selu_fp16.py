import torch
import torch.nn as nn
import triton
import triton.language as tl

SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


@triton.jit
def selu_kernel(x_ptr, y_ptr, n, ALPHA: tl.constexpr, SCALE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = SCALE * (tl.maximum(x, 0.0) + tl.minimum(ALPHA * (tl.exp(x) - 1.0), 0.0))
    tl.store(y_ptr + offs, y.to(tl.float16), mask=mask)


class ModelNew(nn.Module):
    """SELU in fp32 registers, fp16 storage: scale * (max(0, x) + min(0, alpha * (exp(x) - 1)))."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        selu_kernel[(triton.cdiv(n, 512),)](x, y, n, ALPHA=SELU_ALPHA, SCALE=SELU_SCALE, BLOCK=512)
        return y
