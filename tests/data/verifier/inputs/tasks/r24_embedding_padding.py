import torch
import torch.nn as nn

# Embedding lookup with a padding index (row 0 starts at zeros, as nn.Embedding makes it)


class Model(nn.Module):
    def __init__(self, num_embeddings: int, dim: int):
        super().__init__()
        self.emb = nn.Embedding(num_embeddings, dim, padding_idx=0)

    def forward(self, idx: torch.Tensor) -> torch.Tensor:
        return self.emb(idx)


batch_size = 8
length = 16
num_embeddings = 64
dim = 32


def get_inputs():
    return [torch.randint(0, num_embeddings, (batch_size, length))]


def get_init_inputs():
    return [num_embeddings, dim]
