import torch
import torch.nn as nn

# KernelBench 24_LogSoftmax at a small size, half precision


class Model(nn.Module):
    def __init__(self, dim: int = 1):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.log_softmax(x, dim=self.dim)


batch_size = 16
dim = 512


def get_inputs():
    return [torch.randn(batch_size, dim).half()]


def get_init_inputs():
    return []
