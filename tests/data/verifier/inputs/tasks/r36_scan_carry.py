import torch
import torch.nn as nn

# A chunk of a long prefix sum: the running sum along the last dimension continues from the carry of the chunks
# before it, y = cumsum(x) + carry. get_inputs gives the first chunk, whose carry is zeros.


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, carry: torch.Tensor) -> torch.Tensor:
        return torch.cumsum(x, dim=-1) + carry.unsqueeze(-1)


batch_size = 4
channels = 8
length = 40


def get_inputs():
    return [torch.randn(batch_size, channels, length), torch.zeros(batch_size, channels)]


def get_init_inputs():
    return []
