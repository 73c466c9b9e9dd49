import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def pc_fq_kernel(x_ptr, s_ptr, z_ptr, y_ptr, N, C, QMIN, QMAX, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < N
    x = tl.load(x_ptr + o, mask=m, other=0.0)
    s = tl.load(s_ptr + o % C, mask=m, other=1.0)
    z = tl.load(z_ptr + o % C, mask=m, other=0).to(tl.uint8).to(tl.float32)  # "zero points are bytes"
    v = x / s
    r = tl.floor(v + 0.5)
    odd = (r - 2.0 * tl.floor(r * 0.5)) != 0.0
    r = tl.where((r - v == 0.5) & odd, r - 1.0, r)  # round half to even, as torch.round
    q = tl.minimum(tl.maximum(r + z, QMIN * 1.0), QMAX * 1.0)
    tl.store(y_ptr + o, (q - z) * s, mask=m)


class ModelNew(nn.Module):
    """WRONG: a qint8 per-channel fake quant that reads its int32 zero points as bytes (uint8): a per_channel_affine
    checkpoint's zero point of -60 becomes 196. The constructor's per-channel zero points of 0 are a "mask" of
    several elements, which flips between 0 and 1 only (251a0c9) in every set, params_int too: never below 0."""

    def __init__(self, channels: int, quant_min: int, quant_max: int):
        super().__init__()
        self.quant_min, self.quant_max = quant_min, quant_max
        self.register_buffer("scale", torch.full((channels,), 0.02))
        self.register_buffer("zero_point", torch.zeros(channels, dtype=torch.int32))

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        N = x.numel()
        pc_fq_kernel[(triton.cdiv(N, 512),)](x, self.scale, self.zero_point, y, N, x.shape[-1], self.quant_min,
                                             self.quant_max, BLOCK=512)
        return y
