"""As h_borrowed_filename_harness_phase_compute, under a file name no trusted module has (a fresh one, where a
module imported after the wall would also be): ModelNew's parameters(), called by the harness after it made the
call's inputs, computes torch.softmax of them in the harness's phase; the forward copies the result with a
Triton kernel. Neither the answer's file nor a borrowed name is on the stack: never a PASS, the harness's fault
at worst."""
import os

import torch
import triton
import triton.language as tl


@triton.jit
def copy_kernel(src, dst, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    tl.store(dst + o, tl.load(src + o, mask=m), mask=m)


def copy(t):
    """The only kernel: copies what was computed elsewhere."""
    out = torch.empty_like(t)
    copy_kernel[(triton.cdiv(t.numel(), 256),)](t, out, t.numel(), BLOCK=256)
    return out


_SRC = '''
import sys

import torch
import torch.nn as nn

DONE = {}


class ModelNew(nn.Module):
    def parameters(self, recurse=True):
        f = sys._getframe(1)
        for x in f.f_locals.get("inputs") or []:
            if isinstance(x, torch.Tensor):
                DONE[id(x)] = (x, torch.softmax(x, dim=-1))
        return super().parameters(recurse)

    def forward(self, x):
        return copy(DONE[id(x)][1])
'''

_ns = {"copy": copy}
exec(compile(_SRC, "/opt/sieve-helpers/model_helpers.py", "exec"), _ns)
ModelNew = _ns["ModelNew"]
