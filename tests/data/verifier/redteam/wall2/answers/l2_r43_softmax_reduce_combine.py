"""Round 43, legitimate: a row softmax whose max and sum are tl.reduce calls with combine functions of the answer's
own (@triton.jit), which triton's interpreter calls by their fn from its own frames; a device function of the
answer's, tl.static_range, builtins (min, range, isinstance) and a constexpr computed with triton.cdiv in the body."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _max_combine(a, b):
    return tl.maximum(a, b)


@triton.jit
def _add_combine(a, b):
    return a + b


@triton.jit
def _normalize(e, s):
    return e / s


@triton.jit
def softmax_rows(x_ptr, out_ptr, d, BLOCK: tl.constexpr, CHUNKS: tl.constexpr):
    r = tl.program_id(0)
    o = tl.arange(0, BLOCK)
    m = o < d
    v = tl.load(x_ptr + r * d + o, mask=m, other=-float("inf"))
    mx = tl.reduce(v, 0, _max_combine)
    e = tl.exp(v - mx)
    e = tl.where(m, e, 0.0)
    s = tl.reduce(e, 0, _add_combine)
    for _ in tl.static_range(min(CHUNKS, 1)):
        if isinstance(BLOCK, int):
            s = s + 0.0
    y = _normalize(e, s)
    tl.store(out_ptr + r * d + o, y, mask=m)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        b, d = x.shape
        out = torch.empty_like(x)
        block = triton.next_power_of_2(d)
        softmax_rows[(b,)](x, out, d, BLOCK=block, CHUNKS=triton.cdiv(d, block))
        return out
