import torch
import torch.nn as nn

# KernelBench's 20_LeakyReLU at a small size (its generator: torch.rand, all >= 0)


class Model(nn.Module):
    def __init__(self, negative_slope: float = 0.01):
        super(Model, self).__init__()
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.leaky_relu(x, negative_slope=self.negative_slope)


batch_size = 16
dim = 1024


def get_inputs():
    x = torch.rand(batch_size, dim)
    return [x]


def get_init_inputs():
    return []
