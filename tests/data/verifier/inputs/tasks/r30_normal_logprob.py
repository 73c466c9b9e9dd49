import torch
import torch.nn as nn

# A learned diagonal Gaussian's log-likelihood (a flow's base distribution, a VAE's decoder head): the per-feature
# loc and scale are parameters (0 and 1 at construction, learned in a checkpoint). torch.distributions validates its
# arguments (a negative scale raises).


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.loc = nn.Parameter(torch.zeros(dim))
        self.scale = nn.Parameter(torch.ones(dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.distributions.Normal(self.loc, self.scale).log_prob(x)


batch_size = 8
dim = 256


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return [dim]
