# A literal size the shrinker cannot see (a bare 4096 in the forward): shrinking batch_size breaks the
# reference on the CPU, which must say it could not judge the task, not that the task is broken.
import torch
import torch.nn as nn

batch_size = 4096


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x.view(4096, 64).sum(dim=1)


def get_inputs():
    return [torch.randn(batch_size, 64)]


def get_init_inputs():
    return []
