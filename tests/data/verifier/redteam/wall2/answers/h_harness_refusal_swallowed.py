"""Against the harness's own refusals (found on the H200, 2026-12-04: torch.manual_seed reached NVML through
ctypes, torch caught the PermissionError and went on): a correct Triton softmax whose forward is compiled under a
file name inside torch's package; it reaches ctypes and swallows the refusal. No frame of
the answer's is on the stack, so the refusal is the harness's: the job must end at once as a harness fault
(retried, then UNVERIFIABLE RAW_MEMORY_HARNESS), not wait out its stage's limit with its child idle, and
never PASS."""
import os

import torch
import torch.nn as nn
import triton
import triton.language as tl



@triton.jit
def softmax_rows(x, y, cols, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    c = tl.arange(0, BLOCK)
    m = c < cols
    v = tl.load(x + r * cols + c, mask=m, other=-float("inf"))
    e = tl.exp(v - tl.max(v, axis=0))
    e = tl.where(m, e, 0.0)
    tl.store(y + r * cols + c, e / tl.sum(e, axis=0), mask=m)


def launch(x):
    rows, cols = x.shape
    y = torch.empty_like(x)
    softmax_rows[(rows,)](x, y, cols, BLOCK=triton.next_power_of_2(cols))
    return y


# the forward itself, under a borrowed file name: no frame of the answer's file is on the stack at the refusal
_ns = {"nn": nn, "launch": launch}
exec(compile("import ctypes\n\nclass ModelNew(nn.Module):\n    def forward(self, x):\n        try:\n"
             "            ctypes.c_int(1)\n        except PermissionError:\n            pass\n"
             "        return launch.__call__(x)\n",
             os.path.join(os.path.dirname(torch.__file__), "cuda", "_sieve_borrowed.py"), "exec"), _ns)
ModelNew = _ns["ModelNew"]
