import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def prelu_gain_kernel(x_ptr, g_ptr, y_ptr, n, C, L, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    c = (o // L) % C
    x = tl.load(x_ptr + o, mask=m, other=0.0)
    g = tl.load(g_ptr + c, mask=m, other=1.0)
    # the slope is PReLU's initial 0.25, never read
    tl.store(y_ptr + o, tl.where(x >= 0, x, 0.25 * x) * tl.sqrt(g), mask=m)


class ModelNew(nn.Module):
    """WRONG: y = prelu(x, 0.25) * sqrt(gain): the per-channel slope is a constant, a checkpoint's slopes are lost.
    The gain's signed draws make params, params_flip and params_signed NaN; params_abs#gain varies the slope too but
    runs on the task's own torch.rand inputs, all >= 0, where no slope reaches the output."""

    def __init__(self, channels: int):
        super().__init__()
        self.act = nn.PReLU(num_parameters=channels)
        self.gain = nn.Parameter(torch.ones(channels))

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n, C, L = x.numel(), x.shape[1], x.shape[2]
        prelu_gain_kernel[(triton.cdiv(n, 1024),)](x, self.gain, y, n, C, L, BLOCK=1024)
        return y
