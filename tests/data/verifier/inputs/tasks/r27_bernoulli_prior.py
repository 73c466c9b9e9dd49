import torch
import torch.nn as nn

# Per-class Bernoulli log-likelihood of soft targets under a learnable prior probability p (in (0, 1)):
# y = t * log(p) + (1 - t) * log(1 - p). A probability has a bounded domain: the params draws put the first element
# at 1.25..2 times max(|p|, 1) (log(1 - p) NaN), params_flip's first element negative (log(p) NaN)


class Model(nn.Module):
    def __init__(self, classes: int):
        super().__init__()
        self.p = nn.Parameter(torch.full((classes,), 0.3))

    def forward(self, t: torch.Tensor) -> torch.Tensor:
        return t * torch.log(self.p) + (1 - t) * torch.log(1 - self.p)


batch_size = 32
classes = 64


def get_inputs():
    return [torch.rand(batch_size, classes)]


def get_init_inputs():
    return [classes]
