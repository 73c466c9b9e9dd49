import torch
import torch.nn as nn

# Eight per-channel affine stages (16 constant tensors), then a per-channel gain under a square root and a bias.
# The gain's signed draws make params, params_flip and params_signed NaN; params_abs tries at most 16 tensors'
# signs apart (ABS_TRIES): 18 here, in named_parameters' order (gain, bias, then the lists' scales.0-7, shifts.0-7)


class Model(nn.Module):
    def __init__(self, channels: int, depth: int):
        super().__init__()
        self.scales = nn.ParameterList([nn.Parameter(torch.ones(channels)) for _ in range(depth)])
        self.shifts = nn.ParameterList([nn.Parameter(torch.zeros(channels)) for _ in range(depth)])
        self.gain = nn.Parameter(torch.ones(channels))
        self.bias = nn.Parameter(torch.zeros(channels))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for s, t in zip(self.scales, self.shifts):
            x = x * s.view(1, -1, 1) + t.view(1, -1, 1)
        return x * torch.sqrt(self.gain).view(1, -1, 1) + self.bias.view(1, -1, 1)


batch_size = 4
channels = 16
length = 32


def get_inputs():
    return [torch.randn(batch_size, channels, length)]


def get_init_inputs():
    return [channels, 8]
