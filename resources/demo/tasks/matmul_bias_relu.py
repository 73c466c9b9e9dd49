import torch
import torch.nn as nn


class Model(nn.Module):
    """A linear layer followed by ReLU: relu(x @ W^T + b)."""

    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        return torch.relu(self.linear(x))


M = 32
K = 48
N = 40


def get_inputs():
    return [torch.randn(M, K)]


def get_init_inputs():
    return [K, N]
