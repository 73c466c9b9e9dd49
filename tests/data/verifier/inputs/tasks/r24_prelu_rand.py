import torch
import torch.nn as nn

# PReLU with one learnable slope per channel, on torch.rand inputs (KernelBench's generator for activations)


class Model(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.act = nn.PReLU(num_parameters=channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.act(x)


batch_size = 8
channels = 16
length = 64


def get_inputs():
    return [torch.rand(batch_size, channels, length)]


def get_init_inputs():
    return [channels]
