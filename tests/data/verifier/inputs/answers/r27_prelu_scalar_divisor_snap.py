import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def prelu_div_kernel(x_ptr, a_ptr, s_ptr, y_ptr, n, C, L, BLOCK: tl.constexpr):
    a = tl.load(a_ptr)
    # slopes of magnitude below 1 snapped to the initial 0.25 (round 25's r25_prelu_scalar_snap)
    a = tl.where((a >= 1.0) | (a <= -1.0), a, 0.25)
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    c = (o // L) % C
    x = tl.load(x_ptr + o, mask=m, other=0.0)
    s = tl.load(s_ptr + c, mask=m, other=1.0)
    tl.store(y_ptr + o, tl.where(x >= 0, x, a * x) / s, mask=m)


class ModelNew(nn.Module):
    """WRONG: nn.PReLU() then a per-channel divisor; a slope of magnitude below 1 is snapped to the initial 0.25 (a
    checkpoint's -0.3 or 0.1 is lost). Round 25 closed this with params_flip's first element inside (-1, 0); here
    params_flip's exact zeros in the divisor make its reference inf and it is dropped, params (slope 1.25..2) stays,
    and params_abs is not tried (params is kept)."""

    def __init__(self, channels: int):
        super().__init__()
        self.act = nn.PReLU()
        self.scale = nn.Parameter(torch.ones(channels))

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n, C, L = x.numel(), x.shape[1], x.shape[2]
        prelu_div_kernel[(triton.cdiv(n, 1024),)](x, self.act.weight, self.scale, y, n, C, L, BLOCK=1024)
        return y
