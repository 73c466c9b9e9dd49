import torch
import torch.nn as nn

# Learned absolute position embeddings added to token features, with BERT's persistent `position_ids` buffer
# (torch.arange(max_len), saved in the state dict as older transformers checkpoints do): y = x + table[position_ids].


class Model(nn.Module):
    def __init__(self, max_len: int, dim: int):
        super().__init__()
        self.register_buffer("position_ids", torch.arange(max_len, dtype=torch.int64))
        self.table = nn.Parameter(torch.randn(max_len, dim))
        self.gain = nn.Parameter(torch.ones(dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return (x + self.table[self.position_ids]) * self.gain


batch_size = 2
max_len = 16
dim = 32


def get_inputs():
    return [torch.randn(batch_size, max_len, dim)]


def get_init_inputs():
    return [max_len, dim]
