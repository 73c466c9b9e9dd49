import torch
import torch.nn as nn

# PReLU with one learnable slope per channel, then a learnable per-channel bias, on torch.rand inputs


class Model(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.act = nn.PReLU(num_parameters=channels)
        self.bias = nn.Parameter(torch.zeros(channels))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.act(x) + self.bias.view(1, -1, 1)


batch_size = 8
channels = 16
length = 64


def get_inputs():
    return [torch.rand(batch_size, channels, length)]


def get_init_inputs():
    return [channels]
