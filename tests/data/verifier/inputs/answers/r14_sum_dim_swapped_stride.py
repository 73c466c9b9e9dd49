import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sum_dim1_kernel(x_ptr, y_ptr, D1, D2, BLOCK_R: tl.constexpr, BLOCK_J: tl.constexpr):
    b = tl.program_id(0)
    pj = tl.program_id(1)
    j = pj * BLOCK_J + tl.arange(0, BLOCK_J)
    acc = tl.zeros((BLOCK_J,), dtype=tl.float32)
    for r0 in range(0, D1, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)
        mask = (r[:, None] < D1) & (j[None, :] < D2)
        # the bug: the row stride is D1 where it is D2 (right only while dim1 == dim2)
        x = tl.load(x_ptr + b * D1 * D2 + r[:, None] * D1 + j[None, :], mask=mask, other=0.0)
        acc += tl.sum(x, axis=0)
    tl.store(y_ptr + b * D2 + j, acc, mask=j < D2)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        x = x.contiguous()
        B, D1, D2 = x.shape
        y = torch.empty((B, 1, D2), device=x.device, dtype=x.dtype)
        BLOCK_J = 16
        sum_dim1_kernel[(B, triton.cdiv(D2, BLOCK_J))](x, y, D1, D2, BLOCK_R=32, BLOCK_J=BLOCK_J)
        return y
