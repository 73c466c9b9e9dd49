import torch
import torch.nn as nn

# BatchNorm1d then Dropout, run as KernelBench runs it (training mode: the batch's statistics; the dropout in eval
# mode, tasks/runmode.py): redteam r20, answers that read the modules' modes


class Model(nn.Module):
    def __init__(self, features: int, p: float):
        super().__init__()
        self.bn = nn.BatchNorm1d(features)
        self.drop = nn.Dropout(p)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.drop(self.bn(x))


batch_size = 48
features = 40
p = 0.5


def get_inputs():
    return [torch.randn(batch_size, features)]


def get_init_inputs():
    return [features, p]
