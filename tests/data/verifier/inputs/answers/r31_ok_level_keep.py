import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def level_mean_kernel(x_ptr, st_ptr, k_ptr, y_ptr, L, D, NL, BLOCK_L: tl.constexpr, BLOCK_D: tl.constexpr):
    pid = tl.program_id(0)  # one (batch, level)
    b = pid // NL
    lvl = pid % NL
    s = tl.load(st_ptr + lvl)
    e = tl.load(st_ptr + lvl + 1, mask=lvl + 1 < NL, other=L)
    e = tl.where(lvl + 1 < NL, e, L)
    keep = tl.load(k_ptr + lvl) != 0
    d = tl.arange(0, BLOCK_D)
    dm = d < D
    acc = tl.zeros((BLOCK_D,), dtype=tl.float32)
    for t0 in range(0, L, BLOCK_L):
        t = t0 + tl.arange(0, BLOCK_L)
        tm = (t >= s) & (t < e)
        v = tl.load(x_ptr + (b * L + t[:, None]) * D + d[None, :], mask=tm[:, None] & dm[None, :], other=0.0)
        acc += tl.sum(v, axis=0)
    out = acc / (e - s).to(tl.float32)
    tl.store(y_ptr + pid * D + d, tl.where(keep, out, 0.0), mask=dm)


class ModelNew(nn.Module):
    """CORRECT: per-level mean over the boundaries of `level_start`, zeroed where `level_keep` drops the level; the
    bool mask read as bytes (a view)."""

    def __init__(self, level_sizes: list):
        super().__init__()
        starts = [0]
        for s in level_sizes[:-1]:
            starts.append(starts[-1] + s)
        self.register_buffer("level_start", torch.tensor(starts, dtype=torch.int64))
        self.register_buffer("level_keep", torch.ones(len(level_sizes), dtype=torch.bool))

    def forward(self, x):
        x = x.contiguous()
        B, L, D = x.shape
        NL = self.level_start.numel()
        y = torch.empty((B, NL, D), device=x.device, dtype=x.dtype)
        level_mean_kernel[(B * NL,)](x, self.level_start, self.level_keep.view(torch.uint8), y, L, D, NL,
                                     BLOCK_L=16, BLOCK_D=triton.next_power_of_2(D))
        return y
