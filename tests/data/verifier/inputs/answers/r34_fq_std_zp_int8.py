import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def std_fq_kernel(x_ptr, mu_ptr, var_ptr, s_ptr, z_ptr, y_ptr, N, C, QMIN, QMAX, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < N
    x = tl.load(x_ptr + o, mask=m, other=0.0)
    mu = tl.load(mu_ptr + o % C, mask=m, other=0.0)
    var = tl.load(var_ptr + o % C, mask=m, other=1.0)
    s = tl.load(s_ptr)
    z = tl.load(z_ptr).to(tl.int8).to(tl.float32)  # "a zero point fits in a byte"
    v = ((x - mu) / tl.sqrt(var + 1e-5)) / s
    r = tl.floor(v + 0.5)
    odd = (r - 2.0 * tl.floor(r * 0.5)) != 0.0
    r = tl.where((r - v == 0.5) & odd, r - 1.0, r)  # round half to even, as torch.round
    q = tl.minimum(tl.maximum(r + z, QMIN * 1.0), QMAX * 1.0)
    tl.store(y_ptr + o, (q - z) * s, mask=m)


class ModelNew(nn.Module):
    """WRONG: standardize, then a quint8-range fake quant (0..255) that narrows its int32 zero point to int8: a
    checkpoint's zero point of 128 (the usual quint8 one) becomes -128. r33_fq_zp_int8_trunc is caught by params_far
    alone (the scalar 0 drawn into [128, 255]); here params_far is not finite (a stored variance drawn negative under
    the sqrt) with the zero point held as well as without (choose's hold), so it is dropped, and the zero point is
    drawn to 1 (params_abs#var) and -1 (params_int) alone, where the narrowing is exact."""

    def __init__(self, channels: int, quant_min: int, quant_max: int):
        super().__init__()
        self.quant_min, self.quant_max = quant_min, quant_max
        self.register_buffer("mean", torch.zeros(channels))
        self.register_buffer("var", torch.ones(channels))
        self.register_buffer("scale", torch.tensor([0.02]))
        self.register_buffer("zero_point", torch.tensor([0], dtype=torch.int32))

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        N = x.numel()
        std_fq_kernel[(triton.cdiv(N, 512),)](x, self.mean, self.var, self.scale, self.zero_point, y, N, x.shape[-1],
                                              self.quant_min, self.quant_max, BLOCK=512)
        return y
