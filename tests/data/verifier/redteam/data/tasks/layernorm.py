import torch
import torch.nn as nn

BATCH = 32
DIM = 1000


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln = nn.LayerNorm(DIM)

    def forward(self, x):
        return self.ln(x)


def get_inputs():
    return [torch.randn(BATCH, DIM)]


def get_init_inputs():
    return []
