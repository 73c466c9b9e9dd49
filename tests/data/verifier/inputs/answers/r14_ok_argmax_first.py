import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def argmax_dim1_kernel(x_ptr, y_ptr, D1, D2, BLOCK_J: tl.constexpr):
    b = tl.program_id(0)
    pj = tl.program_id(1)
    j = pj * BLOCK_J + tl.arange(0, BLOCK_J)
    jm = j < D2
    best = tl.full((BLOCK_J,), float("-inf"), dtype=tl.float32)
    idx = tl.zeros((BLOCK_J,), dtype=tl.int64)
    for r in range(0, D1):
        v = tl.load(x_ptr + b * D1 * D2 + r * D2 + j, mask=jm, other=float("-inf"))
        # the first maximal index, as torch.argmax; a NaN counts as the maximum (its first one wins)
        upd = ((v > best) & (best == best)) | ((v != v) & (best == best))
        best = tl.where(upd, v, best)
        idx = tl.where(upd, r, idx)
    tl.store(y_ptr + b * D2 + j, idx, mask=jm)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        x = x.contiguous()
        B, D1, D2 = x.shape
        y = torch.empty((B, D2), device=x.device, dtype=torch.int64)
        BLOCK_J = 32
        argmax_dim1_kernel[(B, triton.cdiv(D2, BLOCK_J))](x, y, D1, D2, BLOCK_J=BLOCK_J)
        return y
