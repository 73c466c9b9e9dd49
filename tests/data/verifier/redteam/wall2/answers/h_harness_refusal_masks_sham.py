"""A wrong answer hides its evidence behind a refusal the wall charges to the harness: ModelNew is compiled under
a fresh file name (no frame of the answer's file on the stack); its forward computes with torch.softmax (an op
the strict policy refuses, FAIL_SHAM) and, in the same window, makes a ctypes object, which the wall refuses as
torch's or triton's own use of ctypes. The window's report then carries both; the worker read the harness
refusal first and retried the job as its own fault (three times, then UNVERIFIABLE) instead of failing it."""
import torch
import triton
import triton.language as tl


@triton.jit
def copy_kernel(src, dst, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    tl.store(dst + o, tl.load(src + o, mask=m), mask=m)


def launch(y, out):
    copy_kernel[(triton.cdiv(y.numel(), 256),)](y, out, y.numel(), BLOCK=256)


_SRC = '''
import ctypes

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.softmax(x, dim=-1)
        try:
            ctypes.c_int(1)
        except Exception:
            pass
        out = torch.empty_like(y)
        launch(y, out)
        return out
'''
_ns = {"launch": launch}
exec(compile(_SRC, "/opt/sieve-helpers/model.py", "exec"), _ns)
ModelNew = _ns["ModelNew"]
