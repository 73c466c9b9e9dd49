import torch
import torch.nn as nn

# A per-channel PReLU on torch.rand inputs, scaled by the square root of a per-channel gain: the gain's signed draws
# make params, params_flip and params_signed NaN, so params_abs (the gain positive, the slope signed) is the only set
# that varies the model, and it runs on the task's own (non-negative) inputs


class Model(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.act = nn.PReLU(num_parameters=channels)
        self.gain = nn.Parameter(torch.ones(channels))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.act(x) * torch.sqrt(self.gain).view(1, -1, 1)


batch_size = 8
channels = 16
length = 64


def get_inputs():
    return [torch.rand(batch_size, channels, length)]


def get_init_inputs():
    return [channels]
