import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def level_mean_kernel(x_ptr, st_ptr, y_ptr, L, D, NL, BLOCK_L: tl.constexpr, BLOCK_D: tl.constexpr):
    pid = tl.program_id(0)  # one (batch, level)
    b = pid // NL
    lvl = pid % NL
    s = tl.load(st_ptr + lvl)
    e = tl.load(st_ptr + lvl + 1, mask=lvl + 1 < NL, other=L)
    e = tl.where(lvl + 1 < NL, e, L)
    d = tl.arange(0, BLOCK_D)
    dm = d < D
    acc = tl.zeros((BLOCK_D,), dtype=tl.float32)
    for t0 in range(0, L, BLOCK_L):
        t = t0 + tl.arange(0, BLOCK_L)
        tm = (t >= s) & (t < e)
        v = tl.load(x_ptr + (b * L + t[:, None]) * D + d[None, :], mask=tm[:, None] & dm[None, :], other=0.0)
        acc += tl.sum(v, axis=0)
    tl.store(y_ptr + pid * D + d, acc / (e - s).to(tl.float32), mask=dm)


class ModelNew(nn.Module):
    """WRONG: the level boundaries read from `level_start`, but the per-level keep mask ignored (every level kept,
    the constructor's): a checkpoint that dropped a level gives its pooled tokens anyway. Every params set that varies
    the integer and bool buffers redraws `level_start` too (an index list: distinct sorted values up to 48), which
    almost never starts at 0, so the reference's split raises and choose_sets drops the set as not finite;
    params_near and params_toward vary no integer or bool buffer."""

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
        level_mean_kernel[(B * NL,)](x, self.level_start, y, L, D, NL, BLOCK_L=16,
                                     BLOCK_D=triton.next_power_of_2(D))
        return y
