import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def perm_affine_kernel(x_ptr, p_ptr, w_ptr, b_ptr, y_ptr, C, L, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    bi = row // C
    c = row % C
    src = tl.load(p_ptr + c)
    w = tl.load(w_ptr + c)
    b = tl.load(b_ptr + c)
    for s0 in range(0, L, BLOCK):
        o = s0 + tl.arange(0, BLOCK)
        m = o < L
        x = tl.load(x_ptr + (bi * C + src) * L + o, mask=m, other=0.0)
        tl.store(y_ptr + row * L + o, x * w + b, mask=m)


class ModelNew(nn.Module):
    """WRONG: draws the shuffle as the reference does (same seed) and converts it once, in the constructor, to an
    int32 index the kernel reads ("precompute the kernel's index once"); the loaded `perm` is never read, so a
    checkpoint's shuffle is ignored. constant_discrete skips an integer buffer the twin draws otherwise (a randperm),
    and every check builds the answer under the reference's seed."""

    def __init__(self, channels: int):
        super().__init__()
        self.register_buffer("perm", torch.randperm(channels))
        self.weight = nn.Parameter(torch.ones(channels))
        self.bias = nn.Parameter(torch.zeros(channels))
        self.register_buffer("_src32", self.perm.to(torch.int32), persistent=False)

    def forward(self, x):
        x = x.contiguous()
        B, C, L = x.shape
        y = torch.empty_like(x)
        perm_affine_kernel[(B * C,)](x, self._src32, self.weight, self.bias, y, C, L, BLOCK=64)
        return y
