"""legit (round 40, a helper's red team: the name walk of c48b814 refused it; the device-call hooks let it
by): a typed answer imports typing.cast (a plain Python function of typing.py); its kernel uses tl.cast. The
kernel's name `cast` is looked up in the answer's globals, finds typing.cast, a Python function not from the
answer's file nor triton's folder, and the launch is refused."""
from typing import Optional, cast

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_rows(x_ptr, out_ptr, d, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    o = tl.arange(0, BLOCK)
    m = o < d
    v = tl.cast(tl.load(x_ptr + r * d + o, mask=m, other=-float("inf")), tl.float32)
    e = tl.exp(v - tl.max(v, 0))
    p = e / tl.sum(e, 0)
    tl.store(out_ptr + r * d + o, p, mask=m)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor, out: Optional[torch.Tensor] = None) -> torch.Tensor:
        x = cast(torch.Tensor, x).contiguous()
        b, d = x.shape
        out = torch.empty_like(x)
        softmax_rows[(b,)](x, out, d, BLOCK=triton.next_power_of_2(d))
        return out
