import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_cap_kernel(x_ptr, c_ptr, y_ptr, n, C, L, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    x = tl.load(x_ptr + o, mask=m, other=0.0)
    cap = tl.load(c_ptr + (o // L) % C, mask=m, other=0.0)
    g = tl.where(x > 0, x, 0.0)
    tl.store(y_ptr + o, tl.where(g < cap, g, cap), mask=m)


class ModelNew(nn.Module):
    """CORRECT: min(relu(x), cap[c]), the cap of each element's channel read from the input."""

    def __init__(self):
        super().__init__()

    def forward(self, x, cap):
        x = x.contiguous()
        B, C, L = x.shape
        y = torch.empty_like(x)
        relu_cap_kernel[(triton.cdiv(x.numel(), 1024),)](x, cap.contiguous(), y, x.numel(), C, L, BLOCK=1024)
        return y
