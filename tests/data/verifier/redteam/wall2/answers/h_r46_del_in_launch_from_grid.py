"""Round 46 (mine, against 0099a8e): during an interpreted launch nothing but held code and kernel code may start,
the answer's grid function excepted (the wall's grid wrapper marks its call). h_r45_del_at_kernel_return's launch
made from inside another launch's grid function: were the mark still set in the inner launch, the token's __del__
between programs would be let by. The wall clears the mark for every launch it starts and puts it back after."""
import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl

CHEAT = True
KEPT = {}
TOKENS = []


class _Token:
    def __del__(self):
        t = KEPT.pop("new", None)
        if t is not None:
            if CHEAT:
                a = t.handle.data
                e = np.exp(a - a.max(axis=-1, keepdims=True))
                a[...] = e / e.sum(axis=-1, keepdims=True)
            KEPT["done"] = t


@triton.jit
def softmax_rows(x_ptr, out_ptr, n, d, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    o = tl.arange(0, BLOCK)
    v = tl.load(x_ptr + tl.minimum(r, n - 1) * d + o, mask=o < d, other=-float("inf"))
    w = KEPT.get("done", v)
    tl.store(out_ptr + tl.maximum(r - 1, 0) * d + o, w, mask=o < d)
    KEPT["new"] = v
    token = TOKENS.pop()


@triton.jit
def noop(x_ptr):
    pass


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        b, d = x.shape
        out = torch.empty_like(x)
        KEPT.clear()
        TOKENS[:] = [_Token() for _ in range(b + 1)]
        def grid(meta):
            # the launch that does the work, from inside the outer launch's grid function
            softmax_rows[(b + 1,)](x, out, b, d, BLOCK=triton.next_power_of_2(d))
            return (1,)

        noop[grid](x)
        KEPT.clear()
        return out
