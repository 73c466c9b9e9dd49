import torch
import torch.nn as nn

# LeakyReLU (slope 0.2) in half precision, KernelBench 20 style with torch.rand inputs


class Model(nn.Module):
    def __init__(self, negative_slope: float = 0.2):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.leaky_relu(x, negative_slope=self.negative_slope)


batch_size = 16
dim = 1024


def get_inputs():
    return [torch.rand(batch_size, dim).half()]


def get_init_inputs():
    return [0.2]
