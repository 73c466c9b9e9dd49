import torch
import torch.nn as nn

ROWS = 37
COLS = 300


class Model(nn.Module):
    """Each row's mean broadcast over the row: the reference's own output is an expanded view."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x.mean(dim=1, keepdim=True).expand(ROWS, COLS)


def get_inputs():
    return [torch.randn(ROWS, COLS)]


def get_init_inputs():
    return []
