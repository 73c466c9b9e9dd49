import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def prelu1_kernel(x_ptr, a_ptr, y_ptr, n, BLOCK: tl.constexpr):
    a = tl.load(a_ptr)
    # a positive slope below 1 snapped to the initial 0.25 (a checkpoint's 0.1 or 0.2 is lost)
    a = tl.where((a >= 1.0) | (a < 0.0), a, 0.25)
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    x = tl.load(x_ptr + o, mask=m, other=0.0)
    tl.store(y_ptr + o, tl.where(x >= 0, x, a * x), mask=m)


class ModelNew(nn.Module):
    """WRONG: nn.PReLU() with a slope in [0, 1) replaced by the initial 0.25: the commonest checkpoint slopes (0.1,
    0.2) are lost. A one-element tensor is drawn only at its first element's draws: 1.25..2 times max(|a|, 1) with its
    own sign in params/params_signed/params_abs, -0.8..-0.05 times it in params_flip; never in (0, 1.25)."""

    def __init__(self):
        super().__init__()
        self.act = nn.PReLU()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        prelu1_kernel[(triton.cdiv(n, 1024),)](x, self.act.weight, y, n, BLOCK=1024)
        return y
