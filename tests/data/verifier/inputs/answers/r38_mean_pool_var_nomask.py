import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def mean_kernel(h_ptr, v_ptr, y_ptr, L, H, BLOCK_H: tl.constexpr):
    b = tl.program_id(0)
    o = tl.program_id(1) * BLOCK_H + tl.arange(0, BLOCK_H)
    m = o < H
    acc = tl.zeros((BLOCK_H,), dtype=tl.float32)
    for t in range(0, L):
        acc += tl.load(h_ptr + (b * L + t) * H + o, mask=m, other=0.0)
    v = tl.load(v_ptr + o, mask=m, other=1.0)
    tl.store(y_ptr + b * H + o, (acc / L) / tl.sqrt(v), mask=m)


class ModelNew(nn.Module):
    """WRONG: mean pooling that never reads the attention mask (padding tokens are averaged in), then divided by
    sqrt(var) per feature."""

    def __init__(self):
        super().__init__()

    def forward(self, h, attention_mask, var):
        h = h.contiguous()
        B, L, H = h.shape
        y = torch.empty((B, H), device=h.device, dtype=h.dtype)
        mean_kernel[(B, triton.cdiv(H, 32))](h, var.contiguous(), y, L, H, BLOCK_H=32)
        return y
