import torch
import torch.nn as nn

BATCH = 32
DIM = 1001  # odd: derived shapes keep it (the answer hard-codes the LayerNorm size)


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
