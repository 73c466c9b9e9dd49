import torch
import torch.nn as nn

# Fake quantization per channel (the last dimension), qint8 range [-128, 127], laid out as
# torch.ao.quantization.FakeQuantize keeps a per-channel one: a float `scale` and an int32 `zero_point` per channel,
# persistent buffers a calibrated checkpoint fills in (per_channel_affine: zero points anywhere in [-128, 127], -60
# for a channel whose values lie in [-1.4, 3.7]). As constructed (symmetric): scales 0.02, zero points 0.


class Model(nn.Module):
    def __init__(self, channels: int, quant_min: int, quant_max: int):
        super().__init__()
        self.quant_min, self.quant_max = quant_min, quant_max
        self.register_buffer("scale", torch.full((channels,), 0.02))
        self.register_buffer("zero_point", torch.zeros(channels, dtype=torch.int32))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        q = torch.clamp(torch.round(x / self.scale) + self.zero_point, self.quant_min, self.quant_max)
        return (q - self.zero_point) * self.scale


def get_inputs():
    return [torch.randn(128, 16)]


def get_init_inputs():
    return [16, -128, 127]
