import time

import torch
import torch.nn as nn

BATCH = 5
DIM = 128


class Model(nn.Module):
    """softmax, with a reference that takes 0.5 s per call: long enough to kill its task server in a test."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        time.sleep(0.5)
        return torch.softmax(x, dim=-1)


def get_inputs():
    return [torch.randn(BATCH, DIM)]


def get_init_inputs():
    return []
