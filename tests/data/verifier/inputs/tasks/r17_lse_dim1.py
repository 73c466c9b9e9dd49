import torch
import torch.nn as nn

# logsumexp over the channels (dim 1) of (batch, channels, length): the reduced dim is not the last


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.logsumexp(x, dim=1)


batch_size = 4
channels = 128
length = 64


def get_inputs():
    return [torch.randn(batch_size, channels, length)]


def get_init_inputs():
    return []
