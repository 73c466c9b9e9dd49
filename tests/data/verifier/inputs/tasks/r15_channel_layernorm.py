import torch
import torch.nn as nn

# LayerNorm over the channels of a channels-first (batch, channels, length) tensor (ConvNeXt's LayerNorm2d,
# a 1-D signal here): every (batch, position) is normalized over its `channels` values, which lie `length`
# apart in memory.


class Model(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.ln = nn.LayerNorm(channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.ln(x.transpose(1, 2)).transpose(1, 2)


batch_size = 2
channels = 1024
length = 7


def get_inputs():
    return [torch.randn(batch_size, channels, length)]


def get_init_inputs():
    return [channels]
