import torch
import torch.nn as nn

BATCH = 64
DIM = 1000


class Model(nn.Module):
    """A loss: one 0-d output."""

    def __init__(self):
        super().__init__()

    def forward(self, pred, target):
        return torch.mean((pred - target) ** 2)


def get_inputs():
    return [torch.randn(BATCH, DIM), torch.randn(BATCH, DIM)]


def get_init_inputs():
    return []
