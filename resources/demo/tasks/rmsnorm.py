import torch
import torch.nn as nn


class Model(nn.Module):
    """RMSNorm over the last dimension: y = x / sqrt(mean(x^2) + eps) * weight."""

    def __init__(self, n, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(n))

    def forward(self, x):
        rms = x.pow(2).mean(dim=-1, keepdim=True).add(self.eps).rsqrt()
        return x * rms * self.weight


M = 8
N = 256


def get_inputs():
    return [torch.randn(M, N)]


def get_init_inputs():
    return [N]
