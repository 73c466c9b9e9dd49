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
    """WRONG: a qint8 fake quant that clamps its int32 zero point at 0 (as r32_fq_zero_point_nonneg): a checkpoint's
    zero point of -100 is quantized around 0, so values below -1.4 are not clipped to -1.4. The constructor's zero
    point 0 is drawn to 1, -1 and [128, 255] alone: -1 only moves the lower clip by one step, which the task's
    inputs never reach at scale 0.05 (|x / s| < 128), so params_int with the constructor's scale leaves the output
    as it was and is dropped (params_gate), and params_flip's scale is in [-0.8, -0.05]: no set shows a negative
    zero point that clips."""

    def __init__(self, quant_min: int, quant_max: int):
        super().__init__()
        self.quant_min, self.quant_max = quant_min, quant_max
        self.register_buffer("scale", torch.tensor([0.05]))
        self.register_buffer("zero_point", torch.tensor([0], dtype=torch.int32))

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        N = x.numel()
        fq_kernel[(triton.cdiv(N, 512),)](x, self.scale, self.zero_point, y, N, self.quant_min, self.quant_max,
                                          BLOCK=512)
        return y
