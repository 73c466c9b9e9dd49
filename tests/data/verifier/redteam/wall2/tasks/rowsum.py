import torch
import torch.nn as nn

BATCH = 7
DIM = 130


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x.sum(dim=-1)


def get_inputs():
    return [torch.randn(BATCH, DIM)]


def get_init_inputs():
    return []
