import torch
import torch.nn as nn
import torch.nn.functional as F

# A per-channel scale drawn by the constructor (torch.rand + 0.5: positive at every seed, so no two seeds build it
# alike and it is no "constant"), then a max pool of width 2: y = max_pool1d(x * scale[c], 2). A trained
# checkpoint's scale may be negative anywhere.


class Model(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.scale = nn.Parameter(torch.rand(channels) + 0.5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.max_pool1d(x * self.scale.view(1, -1, 1), 2)


batch_size = 4
channels = 16
length = 64


def get_inputs():
    return [torch.randn(batch_size, channels, length)]


def get_init_inputs():
    return [channels]
