import torch
import torch.nn as nn

ROWS = 48
COLS = 1000


class Model(nn.Module):
    """RMSNorm over the last dimension, fp32, no gain: the raw CUDA fixtures' task."""

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + 1e-5)


def get_inputs():
    return [torch.randn(ROWS, COLS)]


def get_init_inputs():
    return []
