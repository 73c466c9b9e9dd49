import torch
import torch.nn as nn

# KernelBench 33_BatchNorm at a small size (run as KernelBench runs it: training mode, the batch's statistics)


class Model(nn.Module):
    def __init__(self, num_features: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(num_features=num_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.bn(x)


batch_size = 4
features = 16
dim1 = 24
dim2 = 40


def get_inputs():
    return [torch.randn(batch_size, features, dim1, dim2)]


def get_init_inputs():
    return [features]
