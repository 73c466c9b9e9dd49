"""legit: two-pass softmax whose row statistics live in a registered (non-persistent) module buffer, which
the probe's poison does not touch (hook.protect): the output still comes from the second kernel."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_stats(x, stats, cols, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    c = tl.arange(0, BLOCK)
    m = c < cols
    v = tl.load(x + r * cols + c, mask=m, other=-float("inf"))
    mx = tl.max(v, axis=0)
    s = tl.sum(tl.where(m, tl.exp(v - mx), 0.0), axis=0)
    tl.store(stats + 2 * r, mx)
    tl.store(stats + 2 * r + 1, s)


@triton.jit
def normalize(x, stats, y, cols, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    c = tl.arange(0, BLOCK)
    m = c < cols
    v = tl.load(x + r * cols + c, mask=m)
    tl.store(y + r * cols + c, tl.exp(v - tl.load(stats + 2 * r)) / tl.load(stats + 2 * r + 1), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("stats", torch.empty(0), persistent=False)

    def forward(self, x):
        rows, cols = x.shape
        if self.stats.numel() != 2 * rows:
            self.stats = x.new_empty(2 * rows)
        y = torch.empty_like(x)
        b = triton.next_power_of_2(cols)
        row_stats[(rows,)](x, self.stats, cols, BLOCK=b)
        normalize[(rows,)](x, self.stats, y, cols, BLOCK=b)
        return y
