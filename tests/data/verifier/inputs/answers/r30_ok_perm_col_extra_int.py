import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def perm_affine_kernel(x_ptr, p_ptr, lane_ptr, w_ptr, b_ptr, y_ptr, C, L, BLOCK: tl.constexpr):
    row = tl.program_id(0)  # one (batch, output channel) row
    bi = row // C
    c = tl.load(lane_ptr + row % C)  # the output channel of this lane (an own int32 table: the identity)
    src = tl.load(p_ptr + c)
    w = tl.load(w_ptr + c)
    b = tl.load(b_ptr + c)
    for s0 in range(0, L, BLOCK):
        o = s0 + tl.arange(0, BLOCK)
        m = o < L
        x = tl.load(x_ptr + (bi * C + src) * L + o, mask=m, other=0.0)
        tl.store(y_ptr + (bi * C + c) * L + o, x * w + b, mask=m)


class ModelNew(nn.Module):
    """CORRECT: the permutation kept as an int32 column `src_col` of shape (C, 1) under another name, beside an own
    int32 buffer `lanes` of the permutation's shape (C,) (the identity: which output channel each program writes):
    the route must give the reference's `perm` to the column (same values at construction), not to the buffer of
    the same shape."""

    def __init__(self, channels: int):
        super().__init__()
        self.register_buffer("lanes", torch.arange(channels, dtype=torch.int32))
        self.register_buffer("src_col", torch.arange(channels - 1, -1, -1, dtype=torch.int32).view(channels, 1))
        self.weight = nn.Parameter(torch.ones(channels))
        self.bias = nn.Parameter(torch.zeros(channels))

    def forward(self, x):
        x = x.contiguous()
        B, C, L = x.shape
        y = torch.empty_like(x)
        perm_affine_kernel[(B * C,)](x, self.src_col, self.lanes, self.weight, self.bias, y, C, L, BLOCK=64)
        return y
