import torch
import torch.nn as nn

# Fake quantization per tensor, quint8 range [0, 255], laid out as torch.ao.quantization.FakeQuantize keeps it: a
# float `scale` and an int32 `zero_point` of one element, persistent buffers a calibrated checkpoint fills in (an
# asymmetric quint8 observer: 128 for values centred on 0, 3 for values in [-0.06, 5.04] at this scale). As
# constructed: scale 0.02, zero point 3.


class Model(nn.Module):
    def __init__(self, quant_min: int, quant_max: int):
        super().__init__()
        self.quant_min, self.quant_max = quant_min, quant_max
        self.register_buffer("scale", torch.tensor([0.02]))
        self.register_buffer("zero_point", torch.tensor([3], dtype=torch.int32))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        q = torch.clamp(torch.round(x / self.scale) + self.zero_point, self.quant_min, self.quant_max)
        return (q - self.zero_point) * self.scale


def get_inputs():
    return [torch.randn(8, 256)]


def get_init_inputs():
    return [0, 255]
