import torch
import torch.nn as nn

# GroupNorm over (batch, channels, length) with a non-trivial affine (weight and bias drawn at init)


class Model(nn.Module):
    def __init__(self, num_groups: int, num_channels: int):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups=num_groups, num_channels=num_channels)
        with torch.no_grad():
            self.gn.weight.copy_(torch.randn(num_channels) * 0.5 + 1.0)
            self.gn.bias.copy_(torch.randn(num_channels) * 0.5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.gn(x)


batch_size = 4
num_groups = 4
channels = 16
length = 96


def get_inputs():
    return [torch.randn(batch_size, channels, length)]


def get_init_inputs():
    return [num_groups, channels]
