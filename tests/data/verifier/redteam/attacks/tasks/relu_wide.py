import torch
import torch.nn as nn

ROWS = 64
COLS = 1024


class Model(nn.Module):
    """Elementwise at a power-of-two size, standing in for KernelBench's 4096 x 393216: with a small
    derived_max_bytes (the fixture's task_meta) it is a "large" task of this one's derived shapes."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.relu(x)


def get_inputs():
    return [torch.randn(ROWS, COLS)]


def get_init_inputs():
    return []
