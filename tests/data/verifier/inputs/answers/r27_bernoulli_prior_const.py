import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bernoulli_ll_kernel(t_ptr, y_ptr, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    t = tl.load(t_ptr + o, mask=m, other=0.0)
    # log(0.3) and log(0.7): the prior's initial value, the parameter never read
    tl.store(y_ptr + o, t * -1.2039728043259361 + (1.0 - t) * -0.35667494393873245, mask=m)


class ModelNew(nn.Module):
    """WRONG: y = t * log(0.3) + (1 - t) * log(0.7): the learnable prior p is never read (a checkpoint's p = 0.1
    changes every output). Every params set's first element leaves (0, 1): params, params_signed and params_abs put it
    at 1.25..2 (log(1 - p) NaN), params_flip negative (log(p) NaN): all four are dropped as not finite, and p is never
    varied."""

    def __init__(self, classes: int):
        super().__init__()
        self.p = nn.Parameter(torch.full((classes,), 0.3))

    def forward(self, t):
        t = t.contiguous()
        y = torch.empty_like(t)
        n = t.numel()
        bernoulli_ll_kernel[(triton.cdiv(n, 1024),)](t, y, n, BLOCK=1024)
        return y
