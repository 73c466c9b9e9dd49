import torch
import torch.nn as nn

# LeakyReLU on rows of an odd length (KernelBench 20_LeakyReLU's generator: torch.rand, all >= 0)


class Model(nn.Module):
    def __init__(self, negative_slope: float = 0.01):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.leaky_relu(x, negative_slope=self.negative_slope)


batch_size = 16
dim = 1001


def get_inputs():
    return [torch.rand(batch_size, dim)]


def get_init_inputs():
    return []
