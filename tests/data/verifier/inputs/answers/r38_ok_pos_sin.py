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
    p = tl.load(p_ptr + l)
    f = tl.load(f_ptr + o, mask=m, other=0.0)
    x = tl.load(x_ptr + r * D + o, mask=m, other=0.0)
    tl.store(y_ptr + r * D + o, x + tl.sin(p * f), mask=m)


class ModelNew(nn.Module):
    """CORRECT: x + sin(pos[l] * freq[d]), each row's position read from the input."""

    def __init__(self):
        super().__init__()

    def forward(self, x, pos, freq):
        x = x.contiguous()
        L, D = x.shape[-2], x.shape[-1]
        y = torch.empty_like(x)
        pos_sin_kernel[(x.numel() // D,)](x, pos.contiguous(), freq.contiguous(), y, L, D,
                                          BLOCK_D=triton.next_power_of_2(D))
        return y
