import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def channel_layernorm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, B, C, L, eps, BLOCK_P: tl.constexpr):
    # one lane per (batch, position) pair, BLOCK_P of them per program
    p = tl.program_id(0) * BLOCK_P + tl.arange(0, BLOCK_P)
    pm = p < B * L
    pos = (p // L) * C * L + p % L
    # channels-first: the channels of one position are L apart, the positions contiguous; each program
    # walks down the channels with a vector of BLOCK_P positions (coalesced loads), in fp32
    acc = tl.zeros((BLOCK_P,), dtype=tl.float32)
    for c in range(0, C):
        acc += tl.load(x_ptr + c * L + pos, mask=pm, other=0.0)
    mean = acc / C
    # two-pass variance: the squares of the deviations from the mean (no E[x^2] - E[x]^2 cancellation)
    q = tl.zeros((BLOCK_P,), dtype=tl.float32)
    for c in range(0, C):
        d = tl.where(pm, tl.load(x_ptr + c * L + pos, mask=pm, other=0.0) - mean, 0.0)
        q += d * d
    rstd = 1.0 / tl.sqrt(q / C + eps)
    for c in range(0, C):
        x = tl.load(x_ptr + c * L + pos, mask=pm, other=0.0)
        w = tl.load(w_ptr + c)
        bb = tl.load(b_ptr + c)
        tl.store(y_ptr + c * L + pos, (x - mean) * rstd * w + bb, mask=pm)


class ModelNew(nn.Module):
    """Correct: channels-first LayerNorm, two passes in fp32, one program per block of 16 (batch, position) pairs."""

    def __init__(self, channels: int):
        super().__init__()
        self.ln = nn.LayerNorm(channels)

    def forward(self, x):
        x = x.contiguous()
        B, C, L = x.shape
        y = torch.empty_like(x)
        BLOCK_P = 16
        channel_layernorm_kernel[(triton.cdiv(B * L, BLOCK_P),)](x, self.ln.weight, self.ln.bias, y, B, C, L,
                                                                 self.ln.eps, BLOCK_P=BLOCK_P)
        return y
