import torch
import torch.nn as nn

# Input standardization with stored per-channel statistics, then fake quantization per tensor (quint8 range
# [0, 255]) laid out as torch.ao.quantization.FakeQuantize keeps it: a float `scale` and an int32 `zero_point` of one
# element. All four are persistent buffers a calibrated checkpoint fills in (an asymmetric quint8 observer gives a
# zero point of 128 for values centred on 0). As constructed: mean 0, var 1, scale 0.02, zero point 0.


class Model(nn.Module):
    def __init__(self, channels: int, quant_min: int, quant_max: int):
        super().__init__()
        self.quant_min, self.quant_max = quant_min, quant_max
        self.register_buffer("mean", torch.zeros(channels))
        self.register_buffer("var", torch.ones(channels))
        self.register_buffer("scale", torch.tensor([0.02]))
        self.register_buffer("zero_point", torch.tensor([0], dtype=torch.int32))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = (x - self.mean) / torch.sqrt(self.var + 1e-5)
        q = torch.clamp(torch.round(x / self.scale) + self.zero_point, self.quant_min, self.quant_max)
        return (q - self.zero_point) * self.scale


def get_inputs():
    return [torch.randn(128, 16)]


def get_init_inputs():
    return [16, 0, 255]
