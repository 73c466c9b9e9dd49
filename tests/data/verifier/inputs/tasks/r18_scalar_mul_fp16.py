import torch
import torch.nn as nn

# KernelBench 5_Matrix_scalar_multiplication at a small size, half precision


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, s: float) -> torch.Tensor:
        return A * s


M = 64
N = 256


def get_inputs():
    A = torch.randn(M, N).half()
    s = 3.14
    return [A, s]


def get_init_inputs():
    return []
