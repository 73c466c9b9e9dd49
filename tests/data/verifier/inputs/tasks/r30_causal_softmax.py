import torch
import torch.nn as nn

# Causal masked softmax over attention scores with a learned scale: the causal mask is a persistent bool buffer (the
# operator's structure, GPT-2 style `bias`), the scale a parameter (1 at construction).


class Model(nn.Module):
    def __init__(self, seq: int):
        super().__init__()
        self.register_buffer("causal", torch.tril(torch.ones(seq, seq, dtype=torch.bool)))
        self.scale = nn.Parameter(torch.ones(1))

    def forward(self, s: torch.Tensor) -> torch.Tensor:
        return torch.softmax((s * self.scale).masked_fill(~self.causal, float("-inf")), dim=-1)


batch_size = 4
seq = 16


def get_inputs():
    return [torch.randn(batch_size, seq, seq)]


def get_init_inputs():
    return [seq]
