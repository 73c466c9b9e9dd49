import torch
import torch.nn as nn

# Sum over the last dimension (KernelBench 47_Sum_reduction, small)


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sum(x, dim=1)


M = 8
N = 1000


def get_inputs():
    return [torch.randn(M, N)]


def get_init_inputs():
    return []
