# KernelBench's hinge-loss pattern: the batch size appears as an int and again inside a tuple literal,
# and the two must stay equal (predictions * targets broadcasts over the last dim). Shrinking only the
# int breaks the reference; the task itself is fine.
import torch
import torch.nn as nn

batch_size = 2048
input_shape = (2048,)
dim = 1


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        return torch.mean(torch.clamp(1 - predictions * targets, min=0))


def get_inputs():
    return [torch.rand(batch_size, *input_shape), torch.randint(0, 2, (batch_size,)).float() * 2 - 1]


def get_init_inputs():
    return []
