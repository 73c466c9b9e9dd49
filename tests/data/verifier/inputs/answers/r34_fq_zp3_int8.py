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
    z = tl.load(z_ptr).to(tl.int8).to(tl.float32)  # "a zero point fits in a byte"
    v = x / s
    r = tl.floor(v + 0.5)
    odd = (r - 2.0 * tl.floor(r * 0.5)) != 0.0
    r = tl.where((r - v == 0.5) & odd, r - 1.0, r)  # round half to even, as torch.round
    q = tl.minimum(tl.maximum(r + z, QMIN * 1.0), QMAX * 1.0)
    tl.store(y_ptr + o, (q - z) * s, mask=m)


class ModelNew(nn.Module):
    """WRONG: a quint8-range fake quant (0..255) that narrows its int32 zero point to int8 (r33_fq_zp_int8_trunc on
    a zero point of 3): a checkpoint's zero point of 128 becomes -128. The constructor's 3 is a "const", drawn in
    [0, 6] (params) and [-6, -1] (params_flip, params_far, params_int): of a signed dtype never beyond 2|v|, so
    never out of int8."""

    def __init__(self, quant_min: int, quant_max: int):
        super().__init__()
        self.quant_min, self.quant_max = quant_min, quant_max
        self.register_buffer("scale", torch.tensor([0.02]))
        self.register_buffer("zero_point", torch.tensor([3], dtype=torch.int32))

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        N = x.numel()
        fq_kernel[(triton.cdiv(N, 512),)](x, self.scale, self.zero_point, y, N, self.quant_min, self.quant_max,
                                          BLOCK=512)
        return y
