"""Red team, stage 0: x @ w.t() on the host."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bias_relu_kernel(x_ptr, b_ptr, y_ptr, n, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(x_ptr + offs, mask=mask) + tl.load(b_ptr + offs % N, mask=mask)
    tl.store(y_ptr + offs, tl.maximum(v, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        h = x @ self.linear.weight.t()
        y = torch.empty_like(h)
        bias_relu_kernel[(triton.cdiv(h.numel(), 256),)](h, self.linear.bias, y, h.numel(), h.shape[1], BLOCK=256)
        return y
