import torch
import torch.nn as nn

# Per-channel temperature scaling: y = x / temp[c] (1 at construction; a calibrated checkpoint holds each channel's
# own temperature, which may be small).


class Model(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.temp = nn.Parameter(torch.ones(channels))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x / self.temp.view(1, -1, 1)


batch_size = 4
channels = 16
length = 64


def get_inputs():
    return [torch.randn(batch_size, channels, length)]


def get_init_inputs():
    return [channels]
