import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def max_dim1_kernel(x_ptr, y_ptr, D1, D2, sb, sr, sj, BLOCK_R: tl.constexpr, BLOCK_J: tl.constexpr):
    b = tl.program_id(0)
    pj = tl.program_id(1)
    j = pj * BLOCK_J + tl.arange(0, BLOCK_J)
    acc = tl.full((BLOCK_J,), float("-inf"), dtype=tl.float32)
    for r0 in range(0, D1, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)
        mask = (r[:, None] < D1) & (j[None, :] < D2)
        x = tl.load(x_ptr + b * sb + r[:, None] * sr + j[None, :] * sj, mask=mask, other=float("-inf"))
        acc = tl.maximum(acc, tl.max(x, axis=0))
    tl.store(y_ptr + b * D2 + j, acc, mask=j < D2)


class ModelNew(nn.Module):
    """Correct: reads x through its strides (no .contiguous() copy), loops over the reduced dimension in
    chunks of 32 with -inf padding (a tail whenever D1 is not a multiple of 32)."""

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
