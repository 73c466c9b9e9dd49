"""Softmax whose inputs the task makes through numpy (torch.as_tensor of an array it computed, which the device context's __torch_function__ handles): a task's own
guarded call, made inside the device context (a torch function mode) that taskref.device_inputs opens on every
device."""
import numpy as np
import torch
import torch.nn as nn

BATCH = 3
DIM = 100


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.softmax(x, dim=-1)


def get_inputs():
    seed = int(torch.randint(0, 2**31 - 1, (1,)).item())
    a = np.random.default_rng(seed).standard_normal((BATCH, DIM)).astype(np.float32)
    return [torch.as_tensor(a)]


def get_init_inputs():
    return []
