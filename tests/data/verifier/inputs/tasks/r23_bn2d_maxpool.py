import torch
import torch.nn as nn

# BatchNorm2d (training mode, as KernelBench runs it: the batch's statistics) followed by a 2x2 max pool


class Model(nn.Module):
    def __init__(self, num_features: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(num_features=num_features)
        self.pool = nn.MaxPool2d(kernel_size=2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(self.bn(x))


batch_size = 4
features = 8
height = 16
width = 16


def get_inputs():
    return [torch.randn(batch_size, features, height, width)]


def get_init_inputs():
    return [features]
