import torch
import torch.nn as nn

SIZE = 256


class Model(nn.Module):
    """A broken task: its reference raises on its own inputs."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x.view(3, -1)


def get_inputs():
    return [torch.randn(SIZE)]


def get_init_inputs():
    return []
