import torch
import torch.nn as nn


class Model(nn.Module):
    """ReLU on a 2-D activation."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.relu(x)


B = 16
D = 300


def get_inputs():
    return [torch.randn(B, D)]


def get_init_inputs():
    return []
