import torch
import torch.nn as nn

# A row sum whose input arrives transposed (non-contiguous: strides (1, M)), as a column-major activation would


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x.sum(dim=1)


M = 64
N = 96


def get_inputs():
    return [torch.randn(N, M).t()]


def get_init_inputs():
    return []
