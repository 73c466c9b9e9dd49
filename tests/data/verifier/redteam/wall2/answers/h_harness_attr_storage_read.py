"""Round 5's h_harness_attr_tolist_compute with the values read through the storage instead of Tensor.tolist
(REFUSE_READ since round 5): the Child object's `equal` (an instance attribute, in no snapshot) shadowed by the
answer's function, which the harness calls after the forward window and before the write; it reads the input's
and output's bytes with bytes(x.untyped_storage()) and struct.unpack (no tolist, apply_ or map_), computes the
softmax in Python and copies it into the output with copy_ of torch.tensor(list). Storage reads dispatch
aten::set_/select/item per byte (seen with the profiler): should be refused as the answer's ops in the harness's
phase (FAIL_SHAM)."""
import gc
import math
import struct

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(src, dst, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    tl.store(dst + o, tl.load(src + o, mask=m), mask=m)


STATE = {}


def values(t):
    raw = bytes(t.untyped_storage())
    return list(struct.unpack("<%df" % (len(raw) // 4), raw))[t.storage_offset():t.storage_offset() + t.numel()]


def fixer(a, b):
    x, out = STATE.pop("x", None), STATE.pop("out", None)
    if x is not None:
        got = values(out)
        if any(v != got[0] for v in got):  # the probe's output is one constant: leave it
            vals, cols, res = values(x), x.shape[-1], []
            for r in range(0, len(vals), cols):
                e = [math.exp(v - max(vals[r:r + cols])) for v in vals[r:r + cols]]
                res += [v / sum(e) for v in e]
            out.copy_(torch.tensor(res, dtype=out.dtype).view(out.shape))
    return True


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        for o in gc.get_objects():
            if type(o).__name__ == "Child" and type(o).__module__.endswith("candidate.child"):
                o.equal = fixer

    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        copy_kernel[(triton.cdiv(n, 256),)](x, out, n, BLOCK=256)
        STATE["x"], STATE["out"] = x, out
        return out
