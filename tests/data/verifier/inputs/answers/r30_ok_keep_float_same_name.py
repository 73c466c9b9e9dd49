import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sig_scale_kernel(x_ptr, k_ptr, w_ptr, y_ptr, C, L, BLOCK: tl.constexpr):
    row = tl.program_id(0)  # one (batch, channel) row
    c = row % C
    w = tl.load(w_ptr + c)
    keep = tl.load(k_ptr + c) != 0.0
    for s0 in range(0, L, BLOCK):
        o = s0 + tl.arange(0, BLOCK)
        m = o < L
        x = tl.load(x_ptr + row * L + o, mask=m, other=0.0)
        y = w / (1.0 + tl.exp(-x))
        tl.store(y_ptr + row * L + o, tl.where(keep, y, 0.0), mask=m)


class ModelNew(nn.Module):
    """CORRECT: the mask kept under the reference's name `keep` but as float32 0/1 (load_state_dict casts the bool
    into it), read at every call."""

    def __init__(self, channels: int):
        super().__init__()
        self.register_buffer("keep", torch.ones(channels, dtype=torch.float32))
        self.weight = nn.Parameter(torch.ones(channels))

    def forward(self, x):
        x = x.contiguous()
        B, C, L = x.shape
        y = torch.empty_like(x)
        sig_scale_kernel[(B * C,)](x, self.keep, self.weight, y, C, L, BLOCK=64)
        return y
