import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def prelu_kernel(x_ptr, y_ptr, n, slope, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    tl.store(y_ptr + offs, tl.where(x >= 0, x, x * slope), mask=m)


class ModelNew(nn.Module):
    """WRONG: PReLU with the slope 0.25 (nn.PReLU's initial value) for every channel: r22_prelu_slope_constant
    without its unused `self.act = nn.PReLU(...)` line. The model has no parameter at all, so the reference's
    act.weight is an unexpected key, the params check is skipped (params_unreached) and nothing else varies it."""

    def __init__(self, channels: int):
        super().__init__()
        self.channels = channels

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        prelu_kernel[(triton.cdiv(n, 1024),)](x, y, n, 0.25, BLOCK=1024)
        return y
