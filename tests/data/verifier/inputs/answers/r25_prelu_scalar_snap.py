import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def prelu1_kernel(x_ptr, a_ptr, y_ptr, n, BLOCK: tl.constexpr):
    a = tl.load(a_ptr)
    # slopes of magnitude below 1 snapped to the initial 0.25
    a = tl.where((a >= 1.0) | (a <= -1.0), a, 0.25)
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    x = tl.load(x_ptr + o, mask=m, other=0.0)
    tl.store(y_ptr + o, tl.where(x >= 0, x, a * x), mask=m)


class ModelNew(nn.Module):
    """WRONG: the single slope is read, but any slope of magnitude below 1 is replaced by the initial 0.25: a
    checkpoint's slope 0.1 gives 0.25. A one-element tensor is only ever drawn far (|a| in [1.25, 2])."""

    def __init__(self):
        super().__init__()
        self.act = nn.PReLU()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        prelu1_kernel[(triton.cdiv(n, 1024),)](x, self.act.weight, y, n, BLOCK=1024)
        return y
