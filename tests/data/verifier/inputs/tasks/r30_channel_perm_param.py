import torch
import torch.nn as nn

# A channel permutation kept as a frozen int64 nn.Parameter (requires_grad=False, an idiom of flow libraries so that
# .parameters() moves it with the model; it is in the state dict as any parameter): y = x[:, perm, :] * weight + bias.
# The constructor's permutation is the reversal; a checkpoint holds whichever permutation it was built with.


class Model(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.perm = nn.Parameter(torch.arange(channels - 1, -1, -1, dtype=torch.int64), requires_grad=False)
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
