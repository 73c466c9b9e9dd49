import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def fill_kernel(p, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    tl.store(p + offs, 1.0, mask=offs < n)


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(y_ptr + row * n_cols + cols, e / tl.sum(e, axis=0), mask=mask)


class ModelNew(nn.Module):
    """Issue 34's memory hog: its forward fills a 4 GiB buffer with its own kernel before it computes a right
    softmax. Its memory limit (the cgroup's) must stop it at once, not the stage timeout."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        n = 1 << 30
        buf = torch.empty(n, dtype=torch.float32, device=x.device)
        fill_kernel[(triton.cdiv(n, 1 << 20),)](buf, n, BLOCK=1 << 20)
        y = torch.empty_like(x)
        softmax_kernel[(x.shape[0],)](x, y, x.shape[-1], BLOCK=triton.next_power_of_2(x.shape[-1]))
        return y
