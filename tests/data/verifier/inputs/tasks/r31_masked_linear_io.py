import torch
import torch.nn as nn

# A pruned linear layer with an input-feature keep mask and an output-feature keep mask, both bool buffers of the
# same length that the constructor sets to all True: y[b, o] = out_keep[o] * sum_i W[o, i] * in_keep[i] * x[b, i].


class Model(nn.Module):
    def __init__(self, features: int):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(features, features) / features ** 0.5)
        self.register_buffer("in_keep", torch.ones(features, dtype=torch.bool))
        self.register_buffer("out_keep", torch.ones(features, dtype=torch.bool))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = (x * self.in_keep.to(x.dtype)) @ self.weight.t()
        return y * self.out_keep.to(x.dtype)


def get_inputs():
    return [torch.randn(32, 16)]


def get_init_inputs():
    return [16]
