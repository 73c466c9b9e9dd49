import torch
import torch.nn as nn

# KernelBench 27_SELU at a small size, in half precision


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.selu(x)


batch_size = 16
dim = 1024


def get_inputs():
    return [torch.randn(batch_size, dim).half()]


def get_init_inputs():
    return []
