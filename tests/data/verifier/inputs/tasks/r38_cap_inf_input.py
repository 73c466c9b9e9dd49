import torch
import torch.nn as nn
import torch.nn.functional as F

# ReLU with a per-channel upper cap passed in by the caller (an activation clipper calibrated per channel):
# min(relu(x), cap[c]). get_inputs passes caps of +inf (nothing calibrated yet) at every seed.


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, cap: torch.Tensor) -> torch.Tensor:
        return torch.minimum(torch.relu(x), cap[:, None])


batch_size = 4
channels = 16
length = 64


def get_inputs():
    return [torch.randn(batch_size, channels, length), torch.full((channels,), float("inf"))]


def get_init_inputs():
    return []
