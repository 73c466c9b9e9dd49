import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def qb_kernel(x_ptr, s_ptr, lo_ptr, hi_ptr, y_ptr, N, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < N
    x = tl.load(x_ptr + o, mask=m, other=0.0)
    s = tl.load(s_ptr)
    lo = tl.load(lo_ptr).to(tl.float32)
    hi = tl.load(hi_ptr).to(tl.float32)
    v = x / s
    r = tl.floor(v + 0.5)
    odd = (r - 2.0 * tl.floor(r * 0.5)) != 0.0
    r = tl.where((r - v == 0.5) & odd, r - 1.0, r)  # round half to even, as torch.round
    lo = tl.maximum(lo, 0.0)  # "an activation range starts at 0"
    q = tl.minimum(tl.maximum(r, lo), hi)
    tl.store(y_ptr + o, q * s, mask=m)


class ModelNew(nn.Module):
    """WRONG: a fake quant with its range in int64 buffers that clamps the lower bound at 0: a qint8 checkpoint's
    [-128, 127] is applied as [0, 127], every negative value zeroed. quant_min 0 is a scalar "mask": 1 in params, -1 in
    params_flip/params_int, [128, 255] in params_far; quant_max 255 a "const": [0, 510] in params, [-510, -1] in the
    others. Wherever quant_min is drawn below 0, quant_max is too, and the range is empty (min > max): torch.clamp
    gives max everywhere, whatever min is, so a negative lower bound never reaches the output."""

    def __init__(self):
        super().__init__()
        self.register_buffer("scale", torch.tensor([0.02]))
        self.register_buffer("quant_min", torch.tensor([0], dtype=torch.int64))
        self.register_buffer("quant_max", torch.tensor([255], dtype=torch.int64))

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        N = x.numel()
        qb_kernel[(triton.cdiv(N, 512),)](x, self.scale, self.quant_min, self.quant_max, y, N, BLOCK=512)
        return y
