"""legit (round 41): two launches per forward, near h_r41_interp_raw_clear_violations's shape: a first kernel writes
each row's max and sum of exponentials into a scratch tensor, a second normalizes into the output."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_stats(x_ptr, st_ptr, d, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    o = tl.arange(0, BLOCK)
    m = o < d
    v = tl.load(x_ptr + r * d + o, mask=m, other=-float("inf"))
    mx = tl.max(v, axis=0)
    s = tl.sum(tl.exp(v - mx), axis=0)
    tl.store(st_ptr + 2 * r, mx)
    tl.store(st_ptr + 2 * r + 1, s)


@triton.jit
def normalize(x_ptr, st_ptr, out_ptr, d, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    o = tl.arange(0, BLOCK)
    m = o < d
    mx = tl.load(st_ptr + 2 * r)
    s = tl.load(st_ptr + 2 * r + 1)
    v = tl.load(x_ptr + r * d + o, mask=m, other=0.0)
    tl.store(out_ptr + r * d + o, tl.exp(v - mx) / s, mask=m)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        b, d = x.shape
        st = torch.empty((b, 2), dtype=torch.float32, device=x.device)
        out = torch.empty_like(x)
        blk = triton.next_power_of_2(d)
        row_stats[(b,)](x, st, d, BLOCK=blk)
        normalize[(b,)](x, st, out, d, BLOCK=blk)
        return out
