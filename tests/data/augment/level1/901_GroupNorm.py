import torch
import torch.nn as nn


class Model(nn.Module):
    """
    Group normalisation over (batch, features, length) inputs: features must be a multiple of num_groups.
    A KernelBench-style problem written for Sieve's tests (augment --teacher).
    """

    def __init__(self, num_features: int, num_groups: int):
        super(Model, self).__init__()
        self.gn = nn.GroupNorm(num_groups=num_groups, num_channels=num_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.gn(x)


batch_size = 8
features = 32
num_groups = 4
length = 256


def get_inputs():
    x = torch.randn(batch_size, features, length)
    return [x]


def get_init_inputs():
    return [features, num_groups]
