import torch
import torch.nn as nn

# A flow-style permutation layer that stores the permutation and its inverse as persistent buffers (`perm` and
# `inv_perm = argsort(perm)`, as flow libraries do), with a per-channel affine applied in the permuted order and the
# order restored: y = (x[:, perm] * weight + bias)[:, inv_perm]. The constructor's permutation is a rotation by one.


class Model(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        perm = torch.roll(torch.arange(channels, dtype=torch.int64), 1)
        self.register_buffer("perm", perm)
        self.register_buffer("inv_perm", torch.argsort(perm))
        self.weight = nn.Parameter(torch.ones(channels))
        self.bias = nn.Parameter(torch.zeros(channels))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        z = x[:, self.perm, :] * self.weight.view(1, -1, 1) + self.bias.view(1, -1, 1)
        return z[:, self.inv_perm, :]


batch_size = 4
channels = 16
length = 64


def get_inputs():
    return [torch.randn(batch_size, channels, length)]


def get_init_inputs():
    return [channels]
