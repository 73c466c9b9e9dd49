import torch
import torch.nn as nn

# A gated activation with a per-channel gain passed in by the caller (a conditioning vector): y = tanh(x) * gain[c].
# get_inputs passes the neutral gain, ones.


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, gain: torch.Tensor) -> torch.Tensor:
        return torch.tanh(x) * gain.view(1, -1, 1)


batch_size = 4
channels = 16
length = 48


def get_inputs():
    return [torch.randn(batch_size, channels, length), torch.ones(channels)]


def get_init_inputs():
    return []
