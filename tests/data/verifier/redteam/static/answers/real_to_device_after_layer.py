"""Real answer, trimmed (gpt-o1's 31_Conv2d_Min_Add_Multiply, anneouyang/KernelBenchLeaderboard: after the
kept layer, `x = x.to(x.device)` and `bias = bias.to(x.device)`), policy kernelbench: a move to a tensor's own
device is a no-op whatever stage 0 knows of the dtype; stage 0 used to call it a copy (TORCH_OP_IN_FORWARD)."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=mask), 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        x = self.linear(x)
        x = x.contiguous()
        x = x.to(x.device)
        y = torch.empty_like(x)
        relu_kernel[(triton.cdiv(x.numel(), 256),)](x, y, x.numel(), BLOCK=256)
        return y
