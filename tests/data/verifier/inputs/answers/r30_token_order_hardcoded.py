import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scan_gain_kernel(x_ptr, g_ptr, y_ptr, H, W, D, BLOCK: tl.constexpr):
    row = tl.program_id(0)  # one (batch, output token) row
    n = H * W
    bi = row // n
    p = row % n
    i = p // W
    j = p % W
    src = j * H + i  # the column-major scan
    for d0 in range(0, D, BLOCK):
        o = d0 + tl.arange(0, BLOCK)
        m = o < D
        x = tl.load(x_ptr + (bi * n + src) * D + o, mask=m, other=0.0)
        g = tl.load(g_ptr + o, mask=m, other=0.0)
        tl.store(y_ptr + row * D + o, x * g, mask=m)


class ModelNew(nn.Module):
    """WRONG: the scan order computed in the kernel as the column-major scan (order[i, j] = j * H + i, what the
    constructor stores) instead of read from the stored (H, W) `order` buffer: a checkpoint with another order is
    read in the wrong order. The params sets never vary a 2-D integer buffer (constant_discrete: 1-D permutations only)."""

    def __init__(self, h: int, w: int, dim: int):
        super().__init__()
        self.register_buffer("order", torch.arange(h * w, dtype=torch.int64).view(w, h).t().contiguous())
        self.gain = nn.Parameter(torch.ones(dim))
        self.h, self.w = h, w

    def forward(self, x):
        x = x.contiguous()
        B, N, D = x.shape
        y = torch.empty_like(x)
        scan_gain_kernel[(B * N,)](x, self.gain, y, self.h, self.w, D, BLOCK=32)
        return y
