import torch
import torch.nn as nn

# A learnable per-channel correlation rho in (-1, 1) (initialised to 0), used through atanh (Fisher's z):
# y = tanh(x) + atanh(rho[c]). Outside (-1, 1) the reference is NaN: the signed and flipped draws (first element
# 1.25..2, others up to 2) are dropped, and only params_near (within 0.2 of 0) stays.


class Model(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.rho = nn.Parameter(torch.zeros(channels))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.tanh(x) + torch.atanh(self.rho).view(1, -1, 1)


batch_size = 4
channels = 16
length = 64


def get_inputs():
    return [torch.randn(batch_size, channels, length)]


def get_init_inputs():
    return [channels]
