import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bernoulli_ll_kernel(t_ptr, p_ptr, y_ptr, n, K, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    t = tl.load(t_ptr + o, mask=m, other=0.0)
    p = tl.load(p_ptr + o % K, mask=m, other=0.5)
    tl.store(y_ptr + o, t * tl.log(p) + (1.0 - t) * tl.log(1.0 - p), mask=m)


class ModelNew(nn.Module):
    """RIGHT: y = t * log(p) + (1 - t) * log(1 - p), p read per class at every call."""

    def __init__(self, classes: int):
        super().__init__()
        self.p = nn.Parameter(torch.full((classes,), 0.3))

    def forward(self, t):
        t = t.contiguous()
        y = torch.empty_like(t)
        n, K = t.numel(), t.shape[1]
        bernoulli_ll_kernel[(triton.cdiv(n, 1024),)](t, self.p, y, n, K, BLOCK=1024)
        return y
