import torch
import torch.nn as nn

# Group-wise structured pruning: each of G groups keeps K of its channels, stored as a (G, K) table of global channel
# indices (the pruning picks them per group). The constructor keeps the even channels of each group. The output is
# each group's mean over its kept channels.


class Model(nn.Module):
    def __init__(self, channels: int, groups: int):
        super().__init__()
        per = channels // groups
        self.register_buffer("kept", torch.arange(0, channels, 2, dtype=torch.int64).view(groups, per // 2))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x[:, self.kept, :].mean(dim=2)  # (B, G, L)


def get_inputs():
    return [torch.randn(4, 16, 64)]


def get_init_inputs():
    return [16, 2]
