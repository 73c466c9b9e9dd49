import torch
import torch.nn as nn

# A fixed random channel shuffle drawn at construction (torch.randperm) and stored as a persistent int64 buffer, as a
# checkpoint stores it: y = x[:, perm, :] * weight + bias.


class Model(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.register_buffer("perm", torch.randperm(channels))
        self.weight = nn.Parameter(torch.ones(channels))
        self.bias = nn.Parameter(torch.zeros(channels))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x[:, self.perm, :] * self.weight.view(1, -1, 1) + self.bias.view(1, -1, 1)


batch_size = 4
channels = 16
length = 64


def get_inputs():
    return [torch.randn(batch_size, channels, length)]


def get_init_inputs():
    return [channels]
