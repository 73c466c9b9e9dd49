import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gain_bias_kernel(x_ptr, g_ptr, b_ptr, y_ptr, n, C, L, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    c = (o // L) % C
    x = tl.load(x_ptr + o, mask=m, other=0.0)
    g = tl.load(g_ptr + c, mask=m, other=1.0)
    b = tl.load(b_ptr + c, mask=m, other=0.0)
    tl.store(y_ptr + o, x * tl.sqrt(g) + b, mask=m)


class ModelNew(nn.Module):
    """RIGHT: y = x * sqrt(gain) + bias, kept as (C, 1) and (1, C, 1) under other names, bias declared first: routed
    by value (another shape, the same values) under params_abs#gain at every shape."""

    def __init__(self, channels: int):
        super().__init__()
        self.shift = nn.Parameter(torch.zeros(1, channels, 1))
        self.g = nn.Parameter(torch.ones(channels, 1))

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n, C, L = x.numel(), x.shape[1], x.shape[2]
        gain_bias_kernel[(triton.cdiv(n, 1024),)](x, self.g, self.shift, y, n, C, L, BLOCK=1024)
        return y
