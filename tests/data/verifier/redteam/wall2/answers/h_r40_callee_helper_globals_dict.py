"""Round 40 (mine, against the walk's first mends): as h_r40_callee_helper_global_store, with no STORE_GLOBAL: the
helper writes torch's kernel into its own function's __globals__ dict, found by a computed attribute name, and puts the
innocent one back. The answer's kernel and helper code may not name __globals__, __dict__ and the like."""
import torch
import torch.nn as nn
import triton
import triton.language as tl
import sys
import types

import torch.utils._triton as _ut

# torch.sparse._triton_ops imports torch._dynamo (for warn_once), whose import the sandbox refuses: a stand-in
# module while it loads, taken out again
_dyn, _dyn_utils = types.ModuleType("torch._dynamo"), types.ModuleType("torch._dynamo.utils")
_dyn_utils.warn_once = lambda *a, **k: None
sys.modules["torch._dynamo"], sys.modules["torch._dynamo.utils"] = _dyn, _dyn_utils
_had = _ut.has_triton
_ut.has_triton = lambda *a, **k: True
try:
    from torch.sparse import _triton_ops as _ops
finally:
    _ut.has_triton = _had
    del sys.modules["torch._dynamo"], sys.modules["torch._dynamo.utils"]

MAX_ROWS = 1 << 12
TORCH_ROW_SOFTMAX = _ops._bsr_softmax_kernel


@triton.jit
def innocent(crow, a, b, v, c, n, e, f, d, W1: tl.constexpr, W2: tl.constexpr):
    pass


CALLEE = innocent


def arm(on):
    g = arm.__globals__
    g["CALLEE"] = g["TORCH_ROW_SOFTMAX"] if on else g["innocent"]
    return 0


@triton.jit
def softmax_rows(crow, v, n, d, WIDTH: tl.constexpr):
    arm(True)
    CALLEE(crow, 0, 1, v, 0, n, 1, 1, d, WIDTH, WIDTH)
    arm(False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("crow", torch.arange(MAX_ROWS + 1, dtype=torch.int64), persistent=False)

    def forward(self, x):
        b, d = x.shape
        v = x.contiguous().clone()
        softmax_rows[(b, 1, 1)](self.crow, v, b * d, d, WIDTH=triton.next_power_of_2(d))
        return v
