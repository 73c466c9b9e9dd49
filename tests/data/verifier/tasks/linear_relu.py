import torch
import torch.nn as nn

BATCH = 8
IN_FEATURES = 32
OUT_FEATURES = 16


class Model(nn.Module):
    """Level-2 style fusion: Linear + bias + ReLU, with learned weights copied into ModelNew."""

    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        return torch.relu(self.linear(x))


def get_inputs():
    return [torch.randn(BATCH, IN_FEATURES)]


def get_init_inputs():
    return [IN_FEATURES, OUT_FEATURES]
