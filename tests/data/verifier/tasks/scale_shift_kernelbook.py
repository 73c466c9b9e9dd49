import torch
import torch.nn as nn


class Model(nn.Module):
    """KernelBook style: get_init_inputs returns [args, kwargs]."""

    def __init__(self, alpha, beta=0.0):
        super().__init__()
        self.alpha = alpha
        self.beta = beta

    def forward(self, x):
        return x * self.alpha + self.beta


def get_inputs():
    return [torch.rand([4, 4, 4, 4])]


def get_init_inputs():
    return [[1.5], {"beta": 0.25}]
