# A loss: the output is one number (0-d). Its hygiene must be OK, not "constant".
import torch
import torch.nn as nn

batch_size = 4096
dim = 256


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        return torch.mean((predictions - targets) ** 2)


def get_inputs():
    return [torch.randn(batch_size, dim), torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
