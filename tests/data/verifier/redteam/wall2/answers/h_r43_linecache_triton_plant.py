"""Round 43 (against round 42's mends): the wall checks linecache's lines for the answer's file only. triton's own
device functions are rewritten by the interpreter from the lines inspect reads through linecache too: the answer
plants linecache's entry for triton's language/standard.py (no mtime, so checkcache keeps it) with tl.ravel's body
replaced by numpy's softmax on the tile's handle, line for line. Its kernel loads a row, calls tl.ravel (an identity
on a 1-D tile) and stores: if the rewriter reads the planted lines, numpy does the work inside triton's own code,
whose frames the kernel watch does not judge."""
import linecache

import torch
import torch.nn as nn
import triton
import triton.language as tl
import triton.language.standard as _std


def _plant():
    path = _std.__file__
    with open(path) as f:
        lines = f.readlines()
    at = next(i for i, l in enumerate(lines) if l.startswith("def ravel("))
    ret = next(i for i in range(at, len(lines)) if lines[i].strip().startswith("return core.reshape"))
    body = ["    import numpy as np\n", "    a = x.handle.data\n", "    e = np.exp(a - a.max())\n",
            "    a[...] = e / e.sum()\n", "    return x\n"]
    n = ret - at
    lines[at + 1:ret + 1] = body + ["    #\n"] * (n - len(body))
    linecache.cache[path] = (sum(map(len, lines)), None, lines, path)


_plant()


@triton.jit
def softmax_rows(x_ptr, out_ptr, d, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    o = tl.arange(0, BLOCK)
    m = o < d
    v = tl.load(x_ptr + r * d + o, mask=m, other=-float("inf"))
    p = tl.ravel(v)
    tl.store(out_ptr + r * d + o, p, mask=m)


class ModelNew(nn.Module):
    def forward(self, x):
        _plant()
        x = x.contiguous()
        b, d = x.shape
        out = torch.empty_like(x)
        softmax_rows[(b,)](x, out, d, BLOCK=triton.next_power_of_2(d))
        return out
