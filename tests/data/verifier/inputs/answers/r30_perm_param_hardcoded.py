import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rev_affine_kernel(x_ptr, w_ptr, b_ptr, y_ptr, C, L, BLOCK: tl.constexpr):
    row = tl.program_id(0)  # one (batch, output channel) row
    bi = row // C
    c = row % C
    src = C - 1 - c  # the reversal
    w = tl.load(w_ptr + c)
    b = tl.load(b_ptr + c)
    for s0 in range(0, L, BLOCK):
        o = s0 + tl.arange(0, BLOCK)
        m = o < L
        x = tl.load(x_ptr + (bi * C + src) * L + o, mask=m, other=0.0)
        tl.store(y_ptr + row * L + o, x * w + b, mask=m)


class ModelNew(nn.Module):
    """WRONG: the permutation taken as the reversal (the constructor's) instead of read from the frozen integer
    parameter `perm`: a checkpoint with another permutation is read in the wrong order. constant_discrete looks at
    buffers only, and constant_tensors at floating tensors only: an integer nn.Parameter is never varied."""

    def __init__(self, channels: int):
        super().__init__()
        self.perm = nn.Parameter(torch.arange(channels - 1, -1, -1, dtype=torch.int64), requires_grad=False)
        self.weight = nn.Parameter(torch.ones(channels))
        self.bias = nn.Parameter(torch.zeros(channels))

    def forward(self, x):
        x = x.contiguous()
        B, C, L = x.shape
        y = torch.empty_like(x)
        rev_affine_kernel[(B * C,)](x, self.weight, self.bias, y, C, L, BLOCK=64)
        return y
