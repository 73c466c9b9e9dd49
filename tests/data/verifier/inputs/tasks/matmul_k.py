import torch
import torch.nn as nn

# K of 64 (shipped) and 32 (listed): multiples of every K block an answer picks up to 32.
M = 32
K = 64
N = 32


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return torch.matmul(a, b)


def get_inputs():
    return [torch.randn(M, K), torch.randn(K, N)]


def get_init_inputs():
    return []
