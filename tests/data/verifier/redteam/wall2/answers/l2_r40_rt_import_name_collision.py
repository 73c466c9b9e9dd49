"""legit (round 40, a helper's red team: the name walk of c48b814 refused it; the device-call hooks let it
by): the module imports torch.nn.functional.softmax (unused in forward); the kernel calls tl.softmax."""
import enum
import torch
import torch.nn as nn
import triton
import triton.language as tl

from torch.nn.functional import softmax  # noqa: F401 (e.g. kept for a debug path)


@triton.jit
def softmax_rows(x_ptr, out_ptr, d, MODE: tl.constexpr, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    o = tl.arange(0, BLOCK)
    m = o < d
    v = tl.load(x_ptr + r * d + o, mask=m, other=-float("inf"))
    if MODE == 1:
        p = tl.softmax(v[None, :], dim=1)
        p = tl.reshape(p, (BLOCK,))
    else:
        e = tl.exp(v - tl.max(v, 0))
        p = e / tl.sum(e, 0)
    tl.store(out_ptr + r * d + o, p, mask=m)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        b, d = x.shape
        out = torch.empty_like(x)
        softmax_rows[(b,)](x, out, d, MODE=1, BLOCK=triton.next_power_of_2(d))
        return out
