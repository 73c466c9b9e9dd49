# Imports einops, which the verifier's environment does not install (KernelBench level 3 has two such).
import torch
import torch.nn as nn
from einops import rearrange

N = 64


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return rearrange(x, "a b -> b a")


def get_inputs():
    return [torch.randn(N, N)]


def get_init_inputs():
    return []
