import torch
import torch.nn as nn

# A per-channel gain under a square root, floored by a second learnable tensor: y = x * sqrt(max(gain, floor)).
# The reference is finite when either tensor is positive: params_abs makes one of them positive (the greedy keeps
# the later one, floor) and gives the other its signs back


class Model(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.gain = nn.Parameter(torch.ones(channels))
        self.floor = nn.Parameter(torch.full((channels,), 0.01))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * torch.sqrt(torch.maximum(self.gain, self.floor)).view(1, -1, 1)


batch_size = 8
channels = 16
length = 64


def get_inputs():
    return [torch.randn(batch_size, channels, length)]


def get_init_inputs():
    return [channels]
