import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_c_kernel(x_ptr, y_ptr, C, L, BLOCK_C: tl.constexpr, BLOCK_L: tl.constexpr):
    b = tl.program_id(0)
    pl = tl.program_id(1)
    c = tl.arange(0, BLOCK_C)
    l = pl * BLOCK_L + tl.arange(0, BLOCK_L)
    mask = (c[:, None] < C) & (l[None, :] < L)
    ptrs = b * C * L + c[:, None] * L + l[None, :]
    x = tl.load(x_ptr + ptrs, mask=mask, other=float("-inf"))
    m = tl.max(x, axis=0)
    e = tl.where(mask, tl.exp(x - m[None, :]), 0.0)
    s = tl.sum(e, axis=0)
    tl.store(y_ptr + ptrs, e / s[None, :], mask=mask)


class ModelNew(nn.Module):
    """correct: softmax over the channels, the channel tile next_power_of_2(C)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        B, C, L = x.shape
        y = torch.empty_like(x)
        BLOCK_L = 128
        softmax_c_kernel[(B, triton.cdiv(L, BLOCK_L))](x, y, C, L, BLOCK_C=triton.next_power_of_2(C), BLOCK_L=BLOCK_L)
        return y
