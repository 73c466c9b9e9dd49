import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def masked_mean_kernel(h_ptr, m_ptr, y_ptr, L, H, BLOCK_H: tl.constexpr):
    b = tl.program_id(0)
    o = tl.program_id(1) * BLOCK_H + tl.arange(0, BLOCK_H)
    m = o < H
    acc = tl.zeros((BLOCK_H,), dtype=tl.float32)
    cnt = 0.0
    for t in range(0, L):
        keep = tl.load(m_ptr + b * L + t) > 0.5
        acc += tl.where(keep, tl.load(h_ptr + (b * L + t) * H + o, mask=m, other=0.0), 0.0)
        cnt += tl.where(keep, 1.0, 0.0)
    tl.store(y_ptr + b * H + o, acc / tl.maximum(cnt, 1e-9), mask=m)


class ModelNew(nn.Module):
    """CORRECT: masked mean pooling that reads the 0/1 float mask as keep / drop (mask > 0.5) and counts the kept
    tokens: the reference's for every 0/1 mask (the mask's domain)."""

    def __init__(self):
        super().__init__()

    def forward(self, h, mask):
        h = h.contiguous()
        B, L, H = h.shape
        y = torch.empty((B, H), device=h.device, dtype=h.dtype)
        masked_mean_kernel[(B, triton.cdiv(H, 32))](h, mask.contiguous(), y, L, H, BLOCK_H=32)
        return y
