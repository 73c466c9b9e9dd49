# The reference itself fails: a shape mismatch in its own forward.
import torch
import torch.nn as nn

N = 64


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x @ torch.ones(N + 1, 3)


def get_inputs():
    return [torch.randn(N, N)]


def get_init_inputs():
    return []
