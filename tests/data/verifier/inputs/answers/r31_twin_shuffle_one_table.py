import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def two_perm_kernel(x_ptr, p_ptr, g_ptr, y_ptr, C, L, BLOCK: tl.constexpr):
    row = tl.program_id(0)  # one (batch, output channel) row
    bi = row // C
    c = row % C
    mid = tl.load(p_ptr + c)  # the second shuffle: the same table as the first
    src = tl.load(p_ptr + mid)
    g = tl.load(g_ptr + mid)
    for s0 in range(0, L, BLOCK):
        o = s0 + tl.arange(0, BLOCK)
        m = o < L
        x = tl.load(x_ptr + (bi * C + src) * L + o, mask=m, other=0.0)
        tl.store(y_ptr + row * L + o, x * g, mask=m)


class ModelNew(nn.Module):
    """WRONG: both stages' permutations read from `perm1` alone (the two shuffles are the same channel shuffle, so
    one table serves both): a checkpoint with its own permutation per layer is reordered wrong. vary_parameters'
    `related` makes perm2 follow perm1 whenever they are equal at construction, so every params set keeps them
    equal."""

    def __init__(self, channels: int, groups: int):
        super().__init__()
        shuffle = torch.arange(channels).view(groups, channels // groups).t().reshape(-1)
        self.register_buffer("perm1", shuffle.clone())
        self.gain = nn.Parameter(torch.ones(channels))
        self.register_buffer("perm2", shuffle.clone())

    def forward(self, x):
        x = x.contiguous()
        B, C, L = x.shape
        y = torch.empty_like(x)
        two_perm_kernel[(B * C,)](x, self.perm1, self.gain, y, C, L, BLOCK=32)
        return y
