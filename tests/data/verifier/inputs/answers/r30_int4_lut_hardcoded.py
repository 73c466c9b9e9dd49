import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def dequant_kernel(c_ptr, s_ptr, y_ptr, C, L, BLOCK: tl.constexpr):
    row = tl.program_id(0)  # one (batch, channel) row
    ch = row % C
    s = tl.load(s_ptr + ch)
    for s0 in range(0, L, BLOCK):
        o = s0 + tl.arange(0, BLOCK)
        m = o < L
        code = tl.load(c_ptr + row * L + o, mask=m, other=0)
        level = (code - 8).to(tl.float32)  # the symmetric int4 grid
        tl.store(y_ptr + row * L + o, level * s, mask=m)


class ModelNew(nn.Module):
    """WRONG: the codebook taken as the symmetric int4 grid (code - 8, the constructor's `lut`) instead of read from
    the stored int8 LUT: a checkpoint whose quantizer chose other levels dequantizes wrongly. A 1-D integer buffer that
    is not a permutation of 0..n-1 is structure to constant_discrete, never varied."""

    def __init__(self, channels: int):
        super().__init__()
        self.register_buffer("lut", torch.arange(-8, 8, dtype=torch.int8))
        self.scale = nn.Parameter(torch.ones(channels))

    def forward(self, codes):
        codes = codes.contiguous()
        B, C, L = codes.shape
        y = torch.empty((B, C, L), device=codes.device, dtype=torch.float32)
        dequant_kernel[(B * C,)](codes, self.scale, y, C, L, BLOCK=64)
        return y
