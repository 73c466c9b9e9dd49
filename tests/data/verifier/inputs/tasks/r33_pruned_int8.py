import torch
import torch.nn as nn

# Channel pruning by a stored flag per channel: `pruned` is 1 where a channel was pruned, 0 where kept, an int8
# persistent buffer a pruned checkpoint fills in (the constructor prunes nothing). A 0/1 flag by construction.


class Model(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.register_buffer("pruned", torch.zeros(channels, dtype=torch.int8))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * (1 - self.pruned)


def get_inputs():
    return [torch.randn(16, 64)]


def get_init_inputs():
    return [64]
