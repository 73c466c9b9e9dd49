import torch
import torch.nn as nn
import torch.nn.functional as F

# A mined task random in training mode through code, not a module: its forward drops with the functional form and
# its own training flag. tasks/runmode.py switches modules, and this one has none to switch; its reference must be
# refused as nondeterministic, never judged against a mask no answer can draw.


class Model(nn.Module):
    def __init__(self, p: float):
        super().__init__()
        self.p = p

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.dropout(torch.relu(x), self.p, training=self.training)


batch = 4
dim = 64


def get_inputs():
    return [torch.randn(batch, dim)]


def get_init_inputs():
    return [0.5]
