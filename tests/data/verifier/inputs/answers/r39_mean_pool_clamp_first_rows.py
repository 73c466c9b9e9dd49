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
        w = tl.load(m_ptr + b * L + t).to(tl.float32)
        acc += tl.load(h_ptr + (b * L + t) * H + o, mask=m, other=0.0) * w
        cnt += w
    # the clamp only where fixed_rows masks a row whole (rows 0 and 1): 0 / 0 = NaN for any later row masked whole
    if b < 2:
        cnt = tl.maximum(cnt, 1e-9)
    tl.store(y_ptr + b * H + o, acc / cnt, mask=m)


class ModelNew(nn.Module):
    """WRONG: mean pooling over the mask's sum, clamped only for batch rows 0 and 1, the rows the set fixed_rows masks
    whole (inputsets._whole_rows, d29a72c): a later row masked whole is 0 / 0 = NaN where the reference gives 0
    (red team round 39, mine, against fixed_rows)."""

    def __init__(self):
        super().__init__()

    def forward(self, h, attention_mask):
        h = h.contiguous()
        am = attention_mask.contiguous()
        B, L, H = h.shape
        y = torch.empty((B, H), device=h.device, dtype=h.dtype)
        masked_mean_kernel[(B, triton.cdiv(H, 32))](h, am, y, L, H, BLOCK_H=32)
        return y
