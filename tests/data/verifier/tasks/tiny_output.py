import torch
import torch.nn as nn

SIZE = 1024


class Model(nn.Module):
    """Output far below the tolerance: an all-zero answer would pass a plain allclose."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x * 1e-7


def get_inputs():
    return [torch.randn(SIZE)]


def get_init_inputs():
    return []
