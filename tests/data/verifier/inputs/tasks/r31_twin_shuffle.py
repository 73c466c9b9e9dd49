import torch
import torch.nn as nn

# Two channel reorderings around a per-channel gain, each stage with its own stored permutation (a sparsity
# channel-permutation search stores one per layer in the checkpoint). The constructor makes both the ShuffleNet
# channel shuffle of 2 groups: y = (x[:, p1] * g)[:, p2].


class Model(nn.Module):
    def __init__(self, channels: int, groups: int):
        super().__init__()
        shuffle = torch.arange(channels).view(groups, channels // groups).t().reshape(-1)
        self.register_buffer("perm1", shuffle.clone())
        self.gain = nn.Parameter(torch.ones(channels))
        self.register_buffer("perm2", shuffle.clone())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        z = x[:, self.perm1, :] * self.gain.view(1, -1, 1)
        return z[:, self.perm2, :]


def get_inputs():
    return [torch.randn(4, 16, 32)]


def get_init_inputs():
    return [16, 2]
