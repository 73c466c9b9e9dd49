import torch
import torch.nn as nn

# A pruned layer's kept-channel list, a persistent int64 buffer (structured pruning keeps `kept` of the input
# channels; the checkpoint stores which): y = x[:, kept, :] * weight[k] + bias[k]. The constructor keeps the even
# channels; a pruned checkpoint keeps whichever channels the pruning chose (sorted or not).


class Model(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.register_buffer("kept", torch.arange(0, channels, 2, dtype=torch.int64))
        self.weight = nn.Parameter(torch.ones((channels + 1) // 2))
        self.bias = nn.Parameter(torch.zeros((channels + 1) // 2))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x[:, self.kept, :] * self.weight.view(1, -1, 1) + self.bias.view(1, -1, 1)


batch_size = 4
channels = 16
length = 64


def get_inputs():
    return [torch.randn(batch_size, channels, length)]


def get_init_inputs():
    return [channels]
