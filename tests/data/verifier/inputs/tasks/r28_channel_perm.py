import torch
import torch.nn as nn

# A channel permutation kept as a persistent int64 buffer (a channel shuffle / a pruning re-order a checkpoint
# stores): y = x[:, perm, :] * weight[c] + bias[c]. The constructor's permutation is the reversal; a checkpoint
# holds whichever permutation training or export chose.


class Model(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.register_buffer("perm", torch.arange(channels - 1, -1, -1, dtype=torch.int64))
        self.weight = nn.Parameter(torch.ones(channels))
        self.bias = nn.Parameter(torch.zeros(channels))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x[:, self.perm, :] * self.weight.view(1, -1, 1) + self.bias.view(1, -1, 1)


batch_size = 4
channels = 16
length = 64


def get_inputs():
    return [torch.randn(batch_size, channels, length)]


def get_init_inputs():
    return [channels]
