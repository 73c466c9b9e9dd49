import torch
import torch.nn as nn

# PReLU with a single learnable slope shared by all channels (nn.PReLU()'s default: one slope, 0.25)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.act = nn.PReLU()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.act(x)


batch_size = 8
channels = 16
length = 64


def get_inputs():
    return [torch.randn(batch_size, channels, length)]


def get_init_inputs():
    return []
