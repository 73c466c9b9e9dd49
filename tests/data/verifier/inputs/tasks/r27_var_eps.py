import torch
import torch.nn as nn

# A frozen per-channel normalisation with a learnable variance and a learnable epsilon: y = x / sqrt(var + eps).
# Either one's signed draws make the reference NaN somewhere, so params_abs draws both positive


class Model(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.var = nn.Parameter(torch.ones(channels))
        self.eps = nn.Parameter(torch.full((channels,), 1e-5))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x / torch.sqrt(self.var + self.eps).view(1, -1, 1)


batch_size = 8
channels = 16
length = 64


def get_inputs():
    return [torch.randn(batch_size, channels, length)]


def get_init_inputs():
    return [channels]
