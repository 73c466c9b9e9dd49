import torch
import torch.nn as nn

# A GPTQ-style int4 linear: qweight (out, in) holds codes 0..15, per-group scales and per-group integer zero points.
# The constructor (symmetric quantization) stores every zero point as 8; an asymmetric checkpoint stores each group's
# own zero point in 0..15.


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int, group: int):
        super().__init__()
        self.group = group
        self.register_buffer("qweight", torch.randint(0, 16, (out_features, in_features), dtype=torch.int32))
        self.scales = nn.Parameter(torch.rand(out_features, in_features // group) * 0.02 + 0.01)
        self.register_buffer("zeros", torch.full((out_features, in_features // group), 8, dtype=torch.int32))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        z = self.zeros.repeat_interleave(self.group, dim=1)
        s = self.scales.repeat_interleave(self.group, dim=1)
        w = (self.qweight - z).float() * s
        return x @ w.t()


def get_inputs():
    return [torch.randn(8, 64)]


def get_init_inputs():
    return [64, 16, 16]
