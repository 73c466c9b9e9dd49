import torch
import torch.nn as nn

# LayerNorm over the last dimension in half precision (input, weight and bias fp16)


class Model(nn.Module):
    def __init__(self, features: int):
        super().__init__()
        self.ln = nn.LayerNorm(features).half()
        with torch.no_grad():
            self.ln.weight.copy_(torch.randn(features) * 0.5 + 1.0)
            self.ln.bias.copy_(torch.randn(features) * 0.5)

    def forward(self, x):
        return self.ln(x)


batch_size = 32
features = 256


def get_inputs():
    return [torch.randn(batch_size, features).half()]


def get_init_inputs():
    return [features]
