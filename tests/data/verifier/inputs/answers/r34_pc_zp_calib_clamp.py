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
    z = tl.maximum(tl.load(z_ptr + o % C, mask=m, other=0).to(tl.float32), 0.0)  # "zero points are >= 0"
    v = x / s
    r = tl.floor(v + 0.5)
    odd = (r - 2.0 * tl.floor(r * 0.5)) != 0.0
    r = tl.where((r - v == 0.5) & odd, r - 1.0, r)  # round half to even, as torch.round
    q = tl.minimum(tl.maximum(r + z, QMIN * 1.0), QMAX * 1.0)
    tl.store(y_ptr + o, (q - z) * s, mask=m)


class ModelNew(nn.Module):
    """WRONG: an int4 per-channel fake quant that clamps its zero points at 0: a checkpoint's zero point of -5 is
    quantized around 0, so a channel's values below -0.75 are not clipped to -0.75. The constructor's zero points
    1, 3, 0, 6 are distinct and >= 0, so constant_discrete takes them for an "index" (the channels a pruning kept),
    drawn anew as distinct values in [0, 6] (params_far: one of them 7): never below 0 in any set."""

    def __init__(self, quant_min: int, quant_max: int):
        super().__init__()
        self.quant_min, self.quant_max = quant_min, quant_max
        self.register_buffer("scale", torch.full((4,), 0.25))
        self.register_buffer("zero_point", torch.tensor([1, 3, 0, 6], dtype=torch.int32))

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        N = x.numel()
        pc_fq_kernel[(triton.cdiv(N, 512),)](x, self.scale, self.zero_point, y, N, x.shape[-1], self.quant_min,
                                             self.quant_max, BLOCK=512)
        return y
