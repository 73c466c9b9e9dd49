import torch
import torch.nn as nn

# KernelBench level 1, 34_InstanceNorm at a small size: each (batch, channel) plane normalized over H x W


class Model(nn.Module):
    def __init__(self, num_features: int):
        super().__init__()
        self.inorm = nn.InstanceNorm2d(num_features=num_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.inorm(x)


batch_size = 2
features = 8
height = 16
width = 32


def get_inputs():
    return [torch.randn(batch_size, features, height, width)]


def get_init_inputs():
    return [features]
