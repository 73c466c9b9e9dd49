"""legit (round 41): a row softmax whose kernel loads, calls a @triton.jit device function of its own file that
computes max/exp/sum with tl ops, and stores: near h_r41_interp_numpy_handle (a helper between load and store)."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _row_softmax(v):
    z = v - tl.max(v, axis=0)
    e = tl.exp(z)
    return e / tl.sum(e, axis=0)


@triton.jit
def softmax_rows(x_ptr, out_ptr, d, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    o = tl.arange(0, BLOCK)
    m = o < d
    v = tl.load(x_ptr + r * d + o, mask=m, other=-float("inf"))
    p = _row_softmax(v)
    tl.store(out_ptr + r * d + o, p, mask=m)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        b, d = x.shape
        out = torch.empty_like(x)
        softmax_rows[(b,)](x, out, d, BLOCK=triton.next_power_of_2(d))
        return out
