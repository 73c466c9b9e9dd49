import torch
import torch.nn as nn
import torch.nn.functional as F

# KernelBench 31_ELU at a small size, alpha 1.0


class Model(nn.Module):
    def __init__(self, alpha: float = 1.0):
        super().__init__()
        self.alpha = alpha

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.elu(x, alpha=self.alpha)


batch_size = 16
dim = 2048


def get_inputs():
    return [torch.rand(batch_size, dim)]


def get_init_inputs():
    return [1.0]
