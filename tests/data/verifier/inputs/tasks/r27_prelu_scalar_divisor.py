import torch
import torch.nn as nn

# A single-slope PReLU followed by a per-channel divisor (a dequantisation scale): params_flip's exact zeros in the
# divisor make its reference inf, so params_flip (the set that draws a one-element slope inside (-1, 0)) is dropped


class Model(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.act = nn.PReLU()
        self.scale = nn.Parameter(torch.ones(channels))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.act(x) / self.scale.view(1, -1, 1)


batch_size = 8
channels = 16
length = 64


def get_inputs():
    return [torch.randn(batch_size, channels, length)]


def get_init_inputs():
    return [channels]
