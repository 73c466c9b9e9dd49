import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def nm_gain_kernel(x_ptr, w_ptr, y_ptr, N, D, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    o = pid * BLOCK + tl.arange(0, BLOCK)
    m = o < N
    d = o % D
    x = tl.load(x_ptr + o, mask=m, other=0.0)
    w = tl.load(w_ptr + d, mask=m, other=0.0)
    keep = (d % 4) < 2  # the 2:4 pattern: the first two of every four
    tl.store(y_ptr + o, x * tl.where(keep, w, 0.0), mask=m)  # x * 0 as the reference's (inf * 0 = nan)


class ModelNew(nn.Module):
    """WRONG: the 2:4 sparsity pattern computed in the kernel as "the first two of every four" (the constructor's
    mask) instead of read from the stored `mask`: a magnitude-pruned checkpoint keeps other pairs. A bool buffer of
    both values is structure to constant_discrete, never varied."""

    def __init__(self, dim: int):
        super().__init__()
        self.register_buffer("mask", (torch.arange(dim) % 4) < 2)
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        x = x.contiguous()
        N = x.numel()
        y = torch.empty_like(x)
        BLOCK = 256
        nm_gain_kernel[(triton.cdiv(N, BLOCK),)](x, self.weight, y, N, x.shape[-1], BLOCK=BLOCK)
        return y
