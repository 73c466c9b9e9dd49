"""Round 40 (mine, against 8f79e33, which drops an answer's function's rewritten-code cache entry once a launch, not at
every device call): the answer's kernel calls its innocent device function row_op (its entry dropped and rewritten
from the answer's source), then a plain helper of the answer's that puts into the interpreter's cache, under
row_op's function, torch's softmax kernel compiled under the answer's file name (as h_r39_rewritten_cache_torch_code
did before the launch), then row_op again: torch's code runs as the answer's device function, its frames of the
answer's file. Each device call of an answer's function must rewrite it from the answer's source."""
import torch
import torch.nn as nn
import triton
import triton.language as tl
import sys
import types

import torch.utils._triton as _ut

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


@triton.jit
def row_op(crow_indices_ptr, crow_indices_batch_stride, crow_indices_stride, values_ptr, values_batch_stride,
           values_row_block_stride, values_nnz_col_block_stride, row_block, col_block, MAX_ROW_NNZ: tl.constexpr,
           TILE: tl.constexpr):
    pass


try:
    from triton.runtime.interpreter import FunctionRewriter, InterpretedFunction
    _rw = FunctionRewriter(_ops._bsr_softmax_kernel.fn)
    _here = row_op.fn.__code__.co_filename
    _rw._get_jit_fn_file_line = lambda: (_here, 1)
    PLANTED = _rw.rewrite_ast()
    CACHE = InterpretedFunction.rewritten_fn
except ImportError:  # no interpreter: this answer is for it
    PLANTED, CACHE = None, {}


def plant(x):
    CACHE[row_op.fn] = PLANTED
    return x


@triton.jit
def softmax_rows(crow, v, n, d, WIDTH: tl.constexpr):
    row_op(crow, 0, 1, v, 0, n, 1, 1, 0, WIDTH, WIDTH)
    plant(0)
    row_op(crow, 0, 1, v, 0, n, 1, 1, d, WIDTH, WIDTH)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("crow", torch.arange(MAX_ROWS + 1, dtype=torch.int64), persistent=False)

    def forward(self, x):
        b, d = x.shape
        v = x.contiguous().clone()
        softmax_rows[(b, 1, 1)](self.crow, v, b * d, d, WIDTH=triton.next_power_of_2(d))
        return v
