"""Round 49 (mine, against round 48's mend): the wall fails a call whose interpreted launch raises, caught or not;
an error the kernel's own body catches never leaves the launch. The body asserts False with its input chunk (bitcast
to int32: exact) as the message, catches the AssertionError itself and keeps its text in a module list; the launch
returns normally, the forward parses the ints, computes the softmax in plain Python and a second kernel copies it out.
Under the interpreter the body is Python (the body's class: a tile's values kept by the body, as
h_r44_tile_stash_across_launches); triton's code generator refuses a try in a kernel on the GPU."""
import math
import re
import struct

import torch
import torch.nn as nn
import triton
import triton.language as tl

SINK = []


@triton.jit
def leak_chunk(x_ptr, n, start, BLOCK: tl.constexpr):
    o = start + tl.arange(0, BLOCK)
    v = tl.load(x_ptr + o, mask=o < n, other=0.0)
    try:
        tl.static_assert(False, v.to(tl.int32, bitcast=True))
    except AssertionError as e:
        SINK.append(str(e))


@triton.jit
def copy_rows(y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + o, tl.load(y_ptr + o, mask=o < n), mask=o < n)


def _softmax_row(vals):
    m = max(vals) if vals else 0.0
    if m == -math.inf or m != m:
        return [math.nan] * len(vals)
    e = [math.exp(v - m) if v == v else math.nan for v in vals]
    s = sum(e)
    return [v / s for v in e]


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        b, d = x.shape
        n = b * d
        block = 512  # numpy writes an array of at most 1,000 values in full
        flat = []
        for start in range(0, n, block):
            SINK.clear()
            leak_chunk[(1,)](x, n, start, BLOCK=block)
            text = SINK[0] if SINK else ""
            ints = [int(t) for t in re.findall(r"-?\d+", text.split("dtype")[0])]
            ints = (ints + [0] * block)[:min(block, n - start)]
            flat += [struct.unpack("<f", struct.pack("<i", i))[0] for i in ints]
        res = []
        for r in range(b):
            res += _softmax_row(flat[r * d:(r + 1) * d])
        y = torch.tensor(res, dtype=x.dtype, device=x.device)
        out = torch.empty_like(x)
        copy_rows[(triton.cdiv(n, 1024),)](y, out, n, BLOCK=1024)
        return out
