import torch
import torch.nn as nn

# A gain under a square root beside a bias: signed draws of the gain make the reference NaN, so only params_abs
# (every draw positive, the bias too) varies them


class Model(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.gain = nn.Parameter(torch.ones(channels))
        self.bias = nn.Parameter(torch.zeros(channels))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * torch.sqrt(self.gain).view(1, -1, 1) + self.bias.view(1, -1, 1)


batch_size = 8
channels = 16
length = 64


def get_inputs():
    return [torch.randn(batch_size, channels, length)]


def get_init_inputs():
    return [channels]
