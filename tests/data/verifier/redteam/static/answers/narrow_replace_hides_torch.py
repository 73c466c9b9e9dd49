# Red team (against stage 0's if/else narrowing): `self.act` starts as torch's softmax, and an if/else
# "replaces" it with the kernel in both branches, but the second branch leaves __init__ through a `with`
# block before its own assignment: built with fast=False, forward runs torch.softmax. Stage 0 must keep
# torch.softmax possible for forward.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * n_cols + offs, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(y_ptr + row * n_cols + offs, e / tl.sum(e, axis=0), mask=mask)


def launch(x):
    y = torch.empty_like(x)
    softmax_kernel[(x.shape[0],)](x, y, x.shape[1], BLOCK=triton.next_power_of_2(x.shape[1]))
    return y


class ModelNew(nn.Module):
    def __init__(self, fast=True):
        super().__init__()
        self.act = lambda x: torch.softmax(x, dim=1)
        if fast:
            self.act = launch
        else:
            with torch.no_grad():
                return
            self.act = launch

    def forward(self, x):
        return self.act(x)
