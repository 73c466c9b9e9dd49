import torch
import torch.nn as nn

# Attention probabilities with an additive mask passed in by the caller: softmax(scores + mask, -1). get_inputs
# passes a causal mask (0 on and below the diagonal, -inf above), as a decoder's first step builds it.


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, scores: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return torch.softmax(scores + mask, dim=-1)


batch_size = 4
seq_len = 20


def get_inputs():
    mask = torch.full((seq_len, seq_len), float("-inf")).triu(1)
    return [torch.randn(batch_size, seq_len, seq_len), mask]


def get_init_inputs():
    return []
