import torch
import torch.nn as nn

# A scatter-add of rows: out = x.index_add(0, index, src), rows of src added into the rows of x that index names
# (an embedding gradient, a message-passing aggregation). get_inputs draws the index as distinct rows.


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, index: torch.Tensor, src: torch.Tensor) -> torch.Tensor:
        return x.index_add(0, index, src)


rows = 24
picked = 16
dim = 32


def get_inputs():
    return [torch.randn(rows, dim), torch.randperm(rows)[:picked], torch.randn(picked, dim)]


def get_init_inputs():
    return []
