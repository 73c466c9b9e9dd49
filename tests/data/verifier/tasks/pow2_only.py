import torch
import torch.nn as nn

ROWS = 4
COLS = 64


class Model(nn.Module):
    """The reference only accepts power-of-two widths: the derived shape (63) must be dropped."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        assert x.shape[-1] & (x.shape[-1] - 1) == 0, "width must be a power of two"
        return torch.softmax(x, dim=-1)


def get_inputs():
    return [torch.randn(ROWS, COLS)]


def get_init_inputs():
    return []
