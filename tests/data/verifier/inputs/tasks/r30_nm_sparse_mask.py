import torch
import torch.nn as nn

# 2:4 semi-structured sparsity: a persistent bool mask over a per-feature gain (two of every four kept), as a sparse
# checkpoint stores it: y = x * where(mask, weight, 0). The constructor keeps the first two of each group of four; a
# checkpoint pruned by magnitude keeps whichever two (or any pattern) its weights chose.


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.register_buffer("mask", (torch.arange(dim) % 4) < 2)
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * torch.where(self.mask, self.weight, torch.zeros_like(self.weight))


batch_size = 8
dim = 256


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return [dim]
