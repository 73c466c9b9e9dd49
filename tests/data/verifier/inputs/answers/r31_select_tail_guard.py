import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def select_affine_kernel(x_ptr, k_ptr, w_ptr, b_ptr, y_ptr, C, K, L, BLOCK: tl.constexpr):
    row = tl.program_id(0)  # one (batch, kept channel) row
    bi = row // K
    k = row % K
    src = tl.load(k_ptr + k)
    src = tl.minimum(tl.maximum(src, 0), 2 * K - 2)  # bounds guard on the stored index
    w = tl.load(w_ptr + k)
    b = tl.load(b_ptr + k)
    for s0 in range(0, L, BLOCK):
        o = s0 + tl.arange(0, BLOCK)
        m = o < L
        x = tl.load(x_ptr + (bi * C + src) * L + o, mask=m, other=0.0)
        tl.store(y_ptr + row * L + o, x * w + b, mask=m)


class ModelNew(nn.Module):
    """WRONG: reads the stored kept-channel list, but clamps it with a bounds guard to [0, 2K-2] (the kept list's
    largest at construction, K of the channels kept): a pruned checkpoint that keeps the last channel (15 of 16) reads
    channel 14 instead. constant_discrete's index draws are distinct values up to the constructor's largest, never
    above it."""

    def __init__(self, channels: int):
        super().__init__()
        self.register_buffer("kept", torch.arange(0, channels, 2, dtype=torch.int64))
        self.weight = nn.Parameter(torch.ones((channels + 1) // 2))
        self.bias = nn.Parameter(torch.zeros((channels + 1) // 2))

    def forward(self, x):
        x = x.contiguous()
        B, C, L = x.shape
        K = self.weight.shape[0]
        y = torch.empty((B, K, L), device=x.device, dtype=x.dtype)
        select_affine_kernel[(B * K,)](x, self.kept, self.weight, self.bias, y, C, K, L, BLOCK=64)
        return y
