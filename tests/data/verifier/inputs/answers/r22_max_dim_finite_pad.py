import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def max_dim1_kernel(x_ptr, y_ptr, D1, D2, sb, sr, sj, BLOCK_R: tl.constexpr, BLOCK_J: tl.constexpr):
    b = tl.program_id(0)
    pj = tl.program_id(1)
    j = pj * BLOCK_J + tl.arange(0, BLOCK_J)
    # "-inf" written as the lowest finite float: a column that is -inf throughout comes out -3.4e38
    acc = tl.full((BLOCK_J,), -3.4028234663852886e38, dtype=tl.float32)
    for r0 in range(0, D1, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)
        mask = (r[:, None] < D1) & (j[None, :] < D2)
        x = tl.load(x_ptr + b * sb + r[:, None] * sr + j[None, :] * sj, mask=mask, other=-3.4028234663852886e38)
        acc = tl.maximum(acc, tl.max(x, axis=0))
    tl.store(y_ptr + b * D2 + j, acc, mask=j < D2)


class ModelNew(nn.Module):
    """WRONG: max over dim 1 whose running max starts at -FLT_MAX (not -inf) and is clamped there by
    tl.maximum: a column that is -inf throughout gives -3.4e38 where torch.max gives -inf."""

    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        B, D1, D2 = x.shape
        y = torch.empty((B, D2), device=x.device, dtype=x.dtype)
        BLOCK_J = 16
        max_dim1_kernel[(B, triton.cdiv(D2, BLOCK_J))](x, y, D1, D2, x.stride(0), x.stride(1), x.stride(2),
                                                       BLOCK_R=32, BLOCK_J=BLOCK_J)
        return y
