import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scale_shift_kernel(x_ptr, y_ptr, n, alpha, beta, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask) * alpha + beta, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, alpha, beta=0.0):
        super().__init__()
        self.alpha = alpha
        self.beta = beta

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        scale_shift_kernel[(triton.cdiv(n, 128),)](x, y, n, self.alpha, self.beta, BLOCK=128)
        return y
