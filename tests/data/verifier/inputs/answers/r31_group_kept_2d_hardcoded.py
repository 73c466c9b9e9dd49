import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def group_mean_kernel(x_ptr, y_ptr, C, G, KP, L, BLOCK: tl.constexpr):
    pid = tl.program_id(0)  # one (batch, group)
    b = pid // G
    g = pid % G
    o = tl.arange(0, BLOCK)
    m = o < L
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for k in range(0, KP):
        src = g * 2 * KP + 2 * k  # the even channels of each group
        acc += tl.load(x_ptr + (b * C + src) * L + o, mask=m, other=0.0)
    tl.store(y_ptr + pid * L + o, acc / KP, mask=m)


class ModelNew(nn.Module):
    """WRONG: the kept channels taken as each group's even ones (the constructor's) instead of read from the (G, K)
    `kept` table: a group-wise pruned checkpoint that keeps other channels pools the wrong ones. constant_discrete's
    "index" kind is 1-D alone; a 2-D table of distinct indices that is not a permutation is left as structure."""

    def __init__(self, channels: int, groups: int):
        super().__init__()
        per = channels // groups
        self.register_buffer("kept", torch.arange(0, channels, 2, dtype=torch.int64).view(groups, per // 2))

    def forward(self, x):
        x = x.contiguous()
        B, C, L = x.shape
        G, KP = self.kept.shape
        y = torch.empty((B, G, L), device=x.device, dtype=x.dtype)
        group_mean_kernel[(B * G,)](x, y, C, G, KP, L, BLOCK=triton.next_power_of_2(L))
        return y
