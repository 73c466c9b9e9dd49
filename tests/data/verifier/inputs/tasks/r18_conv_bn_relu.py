import torch
import torch.nn as nn

# Conv2d -> BatchNorm2d -> ReLU (a ResNet stem block) at a small size; training mode, as KernelBench runs it


class Model(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(out_channels)

    def forward(self, x):
        return torch.relu(self.bn(self.conv(x)))


batch_size = 2
in_channels = 4
out_channels = 8
height = 16
width = 16
kernel_size = 3


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]
