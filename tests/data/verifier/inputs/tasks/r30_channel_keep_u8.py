import torch
import torch.nn as nn

# A channel-pruning mask kept as a persistent uint8 buffer (a ByteTensor mask, as pre-bool PyTorch code and many
# kernels store it; every channel kept at construction, a pruned checkpoint holds 0 for its removed channels):
# y = where(keep[c] != 0, sigmoid(x) * weight[c], 0).


class Model(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.register_buffer("keep", torch.ones(channels, dtype=torch.uint8))
        self.weight = nn.Parameter(torch.ones(channels))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.sigmoid(x) * self.weight.view(1, -1, 1)
        return torch.where(self.keep.view(1, -1, 1) != 0, y, torch.zeros_like(y))


batch_size = 4
channels = 16
length = 64


def get_inputs():
    return [torch.randn(batch_size, channels, length)]


def get_init_inputs():
    return [channels]
