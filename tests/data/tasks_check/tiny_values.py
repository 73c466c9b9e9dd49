# Every output value is far below fp32's tolerance (1e-4): an all-zero answer passes.
import torch
import torch.nn as nn

N = 4096


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.softmax(x, dim=0) * 1e-3


def get_inputs():
    return [torch.rand(N)]


def get_init_inputs():
    return []
