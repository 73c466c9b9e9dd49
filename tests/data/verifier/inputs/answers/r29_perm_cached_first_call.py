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
    """WRONG: reads the stored permutation once, at its first call, into a private copy it keeps ("the index is
    static, upload it once"); a checkpoint loaded after that first call is never seen. Written against the params
    sets' integer buffers: each check loads the state anew into the same instance."""

    def __init__(self, channels: int):
        super().__init__()
        self.register_buffer("perm", torch.arange(channels - 1, -1, -1, dtype=torch.int64))
        self.weight = nn.Parameter(torch.ones(channels))
        self.bias = nn.Parameter(torch.zeros(channels))
        self._cached = None

    def forward(self, x):
        if self._cached is None:
            self._cached = self.perm.detach().clone()
        x = x.contiguous()
        B, C, L = x.shape
        y = torch.empty_like(x)
        perm_affine_kernel[(B * C,)](x, self._cached, self.weight, self.bias, y, C, L, BLOCK=64)
        return y
