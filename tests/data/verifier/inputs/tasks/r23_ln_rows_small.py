import torch
import torch.nn as nn

# LayerNorm over the last dimension (KernelBench 40_LayerNorm, one normalized dimension, small)


class Model(nn.Module):
    def __init__(self, features: int):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape=(features,))

    def forward(self, x):
        return self.ln(x)


batch_size = 16
features = 256


def get_inputs():
    return [torch.randn(batch_size, features)]


def get_init_inputs():
    return [features]
