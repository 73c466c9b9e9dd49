"""Round 44 (against the kernel watch): the watch is a profile function on the main thread only (kernel_calls returns
at once on any other thread). A daemon thread of the answer's, started in the forward, waits for a tile in a shared
dict; the kernel body puts its loaded tile there (a subscript store) and spins on `"done" not in BOX` (no call) until
the thread, unwatched, has computed numpy's softmax in place on the tile's array; the kernel then stores the tile."""
import threading
import time

import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl

BOX = {}
_STARTED = []


def _worker():
    while True:
        t = BOX.pop("tile", None)
        if t is None:
            time.sleep(0.0002)
            continue
        a = t.handle.data
        e = np.exp(a - a.max(axis=-1, keepdims=True))
        a[...] = e / e.sum(axis=-1, keepdims=True)
        BOX["done"] = True


@triton.jit
def softmax_rows(x_ptr, out_ptr, d, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    o = tl.arange(0, BLOCK)
    m = o < d
    v = tl.load(x_ptr + r * d + o, mask=m, other=-float("inf"))
    BOX["tile"] = v
    while "done" not in BOX:
        pass
    BOX.pop("done")
    tl.store(out_ptr + r * d + o, v, mask=m)


class ModelNew(nn.Module):
    def forward(self, x):
        if not _STARTED:
            th = threading.Thread(target=_worker, daemon=True)
            th.start()
            _STARTED.append(th)
        x = x.contiguous()
        b, d = x.shape
        out = torch.empty_like(x)
        softmax_rows[(b,)](x, out, d, BLOCK=triton.next_power_of_2(d))
        return out
