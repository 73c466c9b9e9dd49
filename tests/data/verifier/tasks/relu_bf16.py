import torch
import torch.nn as nn

SIZE = 1000


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.relu(x)


def get_inputs():
    return [torch.randn(SIZE).bfloat16()]


def get_init_inputs():
    return []
