"""legit (round 42): a row softmax that calls triton's own device functions tl.ravel and tl.reshape between its load
and store (two launches per forward, so the wall's cache drop runs twice), near h_r42_own_cache_two_faced_key."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_rows(x_ptr, out_ptr, d, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    o = tl.arange(0, BLOCK)
    m = o < d
    v = tl.load(x_ptr + r * d + o, mask=m, other=-float("inf"))
    v2 = tl.reshape(v, (1, BLOCK))
    z = v2 - tl.max(v2, axis=1)[:, None]
    e = tl.exp(z)
    p = tl.ravel(e / tl.sum(e, axis=1)[:, None])
    tl.store(out_ptr + r * d + o, p, mask=m)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        b, d = x.shape
        out = torch.empty_like(x)
        h = b // 2
        softmax_rows[(h,)](x, out, d, BLOCK=triton.next_power_of_2(d))
        softmax_rows[(b - h,)](x[h:], out[h:], d, BLOCK=triton.next_power_of_2(d))
        return out
