"""Red team, stage 0: F.linear kept in torch under the strict policy."""
import torch
import torch.nn as nn
import torch.nn.functional as F
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
        h = F.linear(x, self.linear.weight, self.linear.bias)
        y = torch.empty_like(h)
        n = h.numel()
        relu_kernel[(triton.cdiv(n, 256),)](h, y, n, BLOCK=256)
        return y
