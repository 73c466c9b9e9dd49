import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def masked_softmax_kernel(s_ptr, k_ptr, y_ptr, L, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    i = r % L
    o = tl.arange(0, BLOCK)
    m = o < L
    s = tl.load(s_ptr + r * L + o, mask=m, other=float("-inf")) + tl.load(k_ptr + i * L + o, mask=m, other=0.0)
    mx = tl.max(s, axis=0)
    e = tl.exp(s - mx)
    tl.store(y_ptr + r * L + o, e / tl.sum(e, axis=0), mask=m)


class ModelNew(nn.Module):
    """CORRECT: softmax over each row of scores + mask, the (L, L) mask broadcast over the batch."""

    def __init__(self):
        super().__init__()

    def forward(self, scores, mask):
        scores = scores.contiguous()
        L = scores.shape[-1]
        y = torch.empty_like(scores)
        masked_softmax_kernel[(scores.numel() // L,)](scores, mask.contiguous(), y, L,
                                                      BLOCK=triton.next_power_of_2(L))
        return y
