import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def pos_sin_kernel(x_ptr, p_ptr, f_ptr, y_ptr, L, D, BLOCK_D: tl.constexpr):
    r = tl.program_id(0)
    l = r % L
    o = tl.arange(0, BLOCK_D)
    m = o < D
    p0 = tl.load(p_ptr)
    step = tl.load(p_ptr + 1) - p0
    p = p0 + l * step  # the position of row l, from the first two alone
    f = tl.load(f_ptr + o, mask=m, other=0.0)
    x = tl.load(x_ptr + r * D + o, mask=m, other=0.0)
    tl.store(y_ptr + r * D + o, x + tl.sin(p * f), mask=m)


class ModelNew(nn.Module):
    """WRONG: reads the first two positions and takes the rest as an arithmetic progression (pos[l] = pos[0] +
    l * (pos[1] - pos[0])); positions of a packed batch (0..9, 0..13) or any other list are read wrong."""

    def __init__(self):
        super().__init__()

    def forward(self, x, pos, freq):
        x = x.contiguous()
        L, D = x.shape[-2], x.shape[-1]
        y = torch.empty_like(x)
        pos_sin_kernel[(x.numel() // D,)](x, pos.contiguous(), freq.contiguous(), y, L, D,
                                          BLOCK_D=triton.next_power_of_2(D))
        return y
