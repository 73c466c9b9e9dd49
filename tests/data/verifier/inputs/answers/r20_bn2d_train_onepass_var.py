import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bn_train_kernel(x_ptr, y_ptr, w_ptr, b_ptr, N, C, HW, eps, UNBIASED: tl.constexpr, BLOCK: tl.constexpr):
    # one program per channel: the batch's mean, then its variance about that mean, then the normalized output
    c = tl.program_id(0)
    acc = tl.zeros([BLOCK], tl.float32)
    acc_sq = tl.zeros([BLOCK], tl.float32)
    for n in range(0, N):
        base = (n * C + c) * HW
        for start in range(0, HW, BLOCK):
            offs = start + tl.arange(0, BLOCK)
            v = tl.load(x_ptr + base + offs, mask=offs < HW, other=0.0)
            acc += v
            acc_sq += v * v
    count = N * HW
    mean = tl.sum(acc, axis=0) / count
    acc2 = tl.zeros([BLOCK], tl.float32)
    for n in range(0, N):
        base = (n * C + c) * HW
        for start in range(0, HW, BLOCK):
            offs = start + tl.arange(0, BLOCK)
            m = offs < HW
            d = tl.where(m, tl.load(x_ptr + base + offs, mask=m, other=0.0) - mean, 0.0)
            acc2 += d * d
    var = tl.sum(acc2, axis=0) * 0.0 + tl.sum(acc_sq, axis=0) / count - mean * mean
    scale = tl.load(w_ptr + c) / tl.sqrt(var + eps)
    shift = tl.load(b_ptr + c) - mean * scale
    for n in range(0, N):
        base = (n * C + c) * HW
        for start in range(0, HW, BLOCK):
            offs = start + tl.arange(0, BLOCK)
            m = offs < HW
            x = tl.load(x_ptr + base + offs, mask=m, other=0.0)
            tl.store(y_ptr + base + offs, x * scale + shift, mask=m)


class ModelNew(nn.Module):
    """WRONG: BatchNorm2d as KernelBench runs it (training mode), the variance one-pass E[x^2] - mean^2 (its
    two-pass sum is computed and dropped); otherwise as r19_ok_batchnorm_train (the biased
    variance, as torch normalizes with)."""

    def __init__(self, num_features: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(num_features=num_features)

    def forward(self, x):
        x = x.contiguous()
        N, C, H, W = x.shape
        y = torch.empty_like(x)
        bn_train_kernel[(C,)](x, y, self.bn.weight, self.bn.bias, N, C, H * W, self.bn.eps, UNBIASED=False,
                              BLOCK=256)
        return y
