import torch
import torch.nn as nn

# Attention's second half: softmax over the scores' last dimension, then times V


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, s, v):
        return torch.softmax(s, dim=-1) @ v


Q = 32
KV = 128
D = 32


def get_inputs():
    return [torch.randn(Q, KV), torch.randn(KV, D)]


def get_init_inputs():
    return []
