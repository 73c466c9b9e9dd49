import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sig_scale_kernel(x_ptr, k_ptr, w_ptr, y_ptr, C, L, BLOCK: tl.constexpr, CB: tl.constexpr):
    row = tl.program_id(0)  # one (batch, channel) row
    c = row % C
    cs = tl.arange(0, CB)
    kept = tl.sum(tl.load(k_ptr + cs, mask=cs < C, other=0).to(tl.int32), axis=0)
    w = tl.load(w_ptr + c)
    # an empty mask means "no mask" (nothing pruned yet): keep every channel
    keep = (tl.load(k_ptr + c) != 0) | (kept == 0)
    for s0 in range(0, L, BLOCK):
        o = s0 + tl.arange(0, BLOCK)
        m = o < L
        x = tl.load(x_ptr + row * L + o, mask=m, other=0.0)
        y = w / (1.0 + tl.exp(-x))
        tl.store(y_ptr + row * L + o, tl.where(keep, y, 0.0), mask=m)


class ModelNew(nn.Module):
    """WRONG: reads the stored keep mask at every call, but takes a mask that keeps no channel as "no mask" (keeps
    every channel): a checkpoint with every channel of the layer pruned gives sigmoid(x) * w where the reference gives
    0. vary_discrete always keeps at least one element of a mask it flips, so that state is never drawn."""

    def __init__(self, channels: int):
        super().__init__()
        self.register_buffer("keep", torch.ones(channels, dtype=torch.bool))
        self.weight = nn.Parameter(torch.ones(channels))

    def forward(self, x):
        x = x.contiguous()
        B, C, L = x.shape
        y = torch.empty_like(x)
        sig_scale_kernel[(B * C,)](x, self.keep.view(torch.uint8), self.weight, y, C, L, BLOCK=64,
                                   CB=triton.next_power_of_2(C))
        return y
