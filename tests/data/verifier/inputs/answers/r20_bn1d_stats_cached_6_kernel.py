import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bn1d_kernel(x_ptr, y_ptr, w_ptr, b_ptr, rm_ptr, rv_ptr, N, C, ROWS, eps, seed, p,
                USE_RUNNING: tl.constexpr, DROP: tl.constexpr, ONEPASS: tl.constexpr, BLOCK: tl.constexpr):
    # one program per channel (column): the batch's mean and biased variance over ROWS rows, then the output
    c = tl.program_id(0)
    if USE_RUNNING:
        mean = tl.load(rm_ptr + c)
        var = tl.load(rv_ptr + c)
    else:
        acc = tl.zeros([BLOCK], tl.float32)
        acc_sq = tl.zeros([BLOCK], tl.float32)
        for start in range(0, ROWS, BLOCK):
            r = start + tl.arange(0, BLOCK)
            v = tl.load(x_ptr + r * C + c, mask=r < ROWS, other=0.0)
            acc += v
            acc_sq += v * v
        mean = tl.sum(acc, axis=0) / ROWS
        if ONEPASS:
            var = tl.sum(acc_sq, axis=0) / ROWS - mean * mean
        else:
            acc2 = tl.zeros([BLOCK], tl.float32)
            for start in range(0, ROWS, BLOCK):
                r = start + tl.arange(0, BLOCK)
                m = r < ROWS
                d = tl.where(m, tl.load(x_ptr + r * C + c, mask=m, other=0.0) - mean, 0.0)
                acc2 += d * d
            var = tl.sum(acc2, axis=0) / ROWS
        tl.store(rm_ptr + c, mean)
        tl.store(rv_ptr + c, var)
    scale = tl.load(w_ptr + c) / tl.sqrt(var + eps)
    shift = tl.load(b_ptr + c) - mean * scale
    for start in range(0, N, BLOCK):
        r = start + tl.arange(0, BLOCK)
        m = r < N
        v = tl.load(x_ptr + r * C + c, mask=m, other=0.0)
        y = v * scale + shift
        if DROP:
            keep = tl.rand(seed, r * C + c) >= p
            y = tl.where(keep, y / (1.0 - p), 0.0)
        tl.store(y_ptr + r * C + c, y, mask=m)


def bn1d(x, bn, rows=None, use_running=False, drop_p=None, seed=0, onepass=False):
    x = x.contiguous()
    N, C = x.shape
    y = torch.empty_like(x)
    bn1d_kernel[(C,)](x, y, bn.weight, bn.bias, bn.running_mean, bn.running_var, N, C,
                      N if rows is None else min(rows, N), bn.eps, seed, 0.0 if drop_p is None else drop_p,
                      USE_RUNNING=use_running, DROP=drop_p is not None, ONEPASS=onepass, BLOCK=64)
    return y


class ModelNew(nn.Module):
    """WRONG: the model stays in training mode and one instance is called again: it takes the batch's statistics
    on its first call, keeps them (plain attributes, not state_dict entries: load_state_dict never resets them)
    and normalizes every later call with them, as an eval BN with "warmed-up" statistics would."""

    def __init__(self, features: int, p: float):
        super().__init__()
        self.bn = nn.BatchNorm1d(features)
        self.drop = nn.Dropout(p)
        self.calls = 0
        self.warm = 6
        object.__setattr__(self, 'frozen', None)

    def forward(self, x):
        self.calls += 1
        if self.calls <= self.warm or self.frozen is None:
            # the kernel writes the batch's statistics where it reads running ones (a plain BN, not a state_dict
            # entry of the model: kept across calls)
            self.frozen = nn.BatchNorm1d(x.shape[1]).to(x.device)
            self.frozen.weight = self.bn.weight
            self.frozen.bias = self.bn.bias
            return bn1d(x, self.frozen)
        return bn1d(x, self.frozen, use_running=True)
