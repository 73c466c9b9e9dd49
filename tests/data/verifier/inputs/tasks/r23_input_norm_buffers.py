import torch
import torch.nn as nn

# Per-channel input standardisation with stored statistics (buffers, like a norm layer's running statistics,
# at their initial values mean 0 and std 1), then GELU (tanh approximation)


class Model(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.register_buffer("mean", torch.zeros(channels))
        self.register_buffer("std", torch.ones(channels))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = (x - self.mean[None, :, None]) / self.std[None, :, None]
        return torch.nn.functional.gelu(x, approximate="tanh")


batch_size = 8
channels = 16
length = 64


def get_inputs():
    return [torch.randn(batch_size, channels, length)]


def get_init_inputs():
    return [channels]
