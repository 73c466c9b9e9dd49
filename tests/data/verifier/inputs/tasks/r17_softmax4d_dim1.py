import torch
import torch.nn as nn

# Softmax over the channels (dim 1) of an NCHW tensor (a segmentation head's class softmax)


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(x, dim=1)


batch_size = 2
channels = 64
height = 8
width = 32


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return []
