import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def fq_kernel(x_ptr, s_ptr, z_ptr, y_ptr, N, QMIN, QMAX, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < N
    x = tl.load(x_ptr + o, mask=m, other=0.0)
    s = tl.load(s_ptr)
    z = tl.maximum(tl.load(z_ptr).to(tl.float32), 0.0)  # "a zero point is never negative"
    v = x / s
    r = tl.floor(v + 0.5)
    odd = (r - 2.0 * tl.floor(r * 0.5)) != 0.0
    r = tl.where((r - v == 0.5) & odd, r - 1.0, r)  # round half to even, as torch.round
    q = tl.minimum(tl.maximum(r + z, QMIN * 1.0), QMAX * 1.0)
    tl.store(y_ptr + o, (q - z) * s, mask=m)


class ModelNew(nn.Module):
    """WRONG: reads the zero point but clamps it at 0, as r32_fq_zero_point_nonneg, on a task whose constructor
    makes the zero point 1: a one-valued integer 1 is a "mask" whose draws are 0 alone (1 - flat), never below 0,
    so a checkpoint zero point of -2 is quantized around 0 and no params set shows it."""

    def __init__(self, quant_min: int, quant_max: int):
        super().__init__()
        self.quant_min, self.quant_max = quant_min, quant_max
        self.register_buffer("scale", torch.tensor([0.25]))
        self.register_buffer("zero_point", torch.tensor([1], dtype=torch.int32))

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        N = x.numel()
        fq_kernel[(triton.cdiv(N, 512),)](x, self.scale, self.zero_point, y, N, self.quant_min, self.quant_max,
                                          BLOCK=512)
        return y
