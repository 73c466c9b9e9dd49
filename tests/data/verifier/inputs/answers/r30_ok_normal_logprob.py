import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def normal_logprob_kernel(x_ptr, loc_ptr, scale_ptr, y_ptr, N, D, HALF_LOG_2PI, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    o = pid * BLOCK + tl.arange(0, BLOCK)
    m = o < N
    d = o % D
    x = tl.load(x_ptr + o, mask=m, other=0.0)
    mu = tl.load(loc_ptr + d, mask=m, other=0.0)
    s = tl.load(scale_ptr + d, mask=m, other=1.0)
    z = (x - mu) / s
    tl.store(y_ptr + o, -0.5 * z * z - tl.log(s) - HALF_LOG_2PI, mask=m)


class ModelNew(nn.Module):
    """CORRECT: the diagonal Gaussian's log-density with the learned loc and scale read at every call."""

    def __init__(self, dim: int):
        super().__init__()
        self.loc = nn.Parameter(torch.zeros(dim))
        self.scale = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        x = x.contiguous()
        N = x.numel()
        y = torch.empty_like(x)
        BLOCK = 256
        normal_logprob_kernel[(triton.cdiv(N, BLOCK),)](x, self.loc, self.scale, y, N, x.shape[-1],
                                                        0.5 * math.log(2 * math.pi), BLOCK=BLOCK)
        return y
