import torch
import torch.nn as nn

M = 6
N = 64
EPS = 1e-6


class Model(nn.Module):
    """Fused RMSNorm over the last dimension with a learned gain (the seed's running example)."""

    def __init__(self, dim, eps=EPS):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(dim).half())
        self.eps = eps

    def forward(self, x):
        rms = x.float().pow(2).mean(dim=-1, keepdim=True).add(self.eps).rsqrt()
        return (x.float() * rms * self.weight.float()).half()


def get_inputs():
    return [torch.randn(M, N).half()]


def get_init_inputs():
    return [N]
