import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def affine_kernel(x_ptr, s_ptr, t_ptr, y_ptr, n, C, L, BLOCK: tl.constexpr, CLAMP: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    c = (o // L) % C
    x = tl.load(x_ptr + o, mask=m, other=0.0)
    s = tl.load(s_ptr + c, mask=m, other=1.0)
    t = tl.load(t_ptr + c, mask=m, other=0.0)
    if CLAMP:
        t = tl.maximum(t, 0.0)  # the last stage's shift clamped at 0: a checkpoint's negative shift is lost
    tl.store(y_ptr + o, x * s + t, mask=m)


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
    """WRONG: eight affine stages, the last one's shift clamped at 0, then y = x * sqrt(gain) + bias. The 18 constant
    tensors come in named_parameters' order (gain, bias, scales.0-7, shifts.0-7); params_abs gives back the signs of
    the first ABS_TRIES (16) only, and shifts.6 and shifts.7 stay positive untried
    (params_abs#gain,shifts.6,shifts.7), so a negative last shift is never seen."""

    def __init__(self, channels: int, depth: int):
        super().__init__()
        self.scales = nn.ParameterList([nn.Parameter(torch.ones(channels)) for _ in range(depth)])
        self.shifts = nn.ParameterList([nn.Parameter(torch.zeros(channels)) for _ in range(depth)])
        self.gain = nn.Parameter(torch.ones(channels))
        self.bias = nn.Parameter(torch.zeros(channels))

    def forward(self, x):
        x = x.contiguous()
        n, C, L = x.numel(), x.shape[1], x.shape[2]
        grid = (triton.cdiv(n, 1024),)
        depth = len(self.scales)
        for i in range(depth):
            y = torch.empty_like(x)
            affine_kernel[grid](x, self.scales[i], self.shifts[i], y, n, C, L, BLOCK=1024, CLAMP=i == depth - 1)
            x = y
        y = torch.empty_like(x)
        gain_bias_kernel[grid](x, self.gain, self.bias, y, n, C, L, BLOCK=1024)
        return y
