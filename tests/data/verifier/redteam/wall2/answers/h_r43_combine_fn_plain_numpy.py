"""Round 43 (against the kernel watch of round 42's mends): triton's interpreter calls a reduction's combine function
by its `fn` itself (generic_reduce: combine_fn.fn(acc, x)), from triton's frames, not through a kernel object's
__call__ and its callee hook. The kernel body stashes its loaded tile in a dict (a subscript store: no call) and hands
tl.reduce an object of the answer's whose `fn` is a plain helper; the helper, run by triton's code inside the kernel,
rewrites the stashed tile with numpy's softmax, and the kernel stores the tile. The watch must refuse Python of the
answer's that is no kernel of its own while its kernel runs."""
import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl

STASH = {}


def _combine(a, b):
    t = STASH.pop("tile", None)
    if t is not None:
        x = t.handle.data
        e = np.exp(x - x.max(axis=-1, keepdims=True))
        x[...] = e / e.sum(axis=-1, keepdims=True)
    return a + b


class _Combine:
    fn = staticmethod(_combine)


COMBINE = _Combine()


@triton.jit
def softmax_rows(x_ptr, out_ptr, d, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    o = tl.arange(0, BLOCK)
    m = o < d
    v = tl.load(x_ptr + r * d + o, mask=m, other=-float("inf"))
    STASH["tile"] = v
    s = tl.reduce(v, 0, COMBINE)
    tl.store(out_ptr + r * d + o, v, mask=m)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        b, d = x.shape
        out = torch.empty_like(x)
        softmax_rows[(b,)](x, out, d, BLOCK=triton.next_power_of_2(d))
        return out
