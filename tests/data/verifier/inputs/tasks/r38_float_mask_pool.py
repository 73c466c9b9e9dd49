import torch
import torch.nn as nn

# Masked mean pooling with the attention mask as a float 0/1 tensor (a pipeline that casts the tokenizer's mask
# once): the mean of the token states where the mask is 1. get_inputs pads nothing: every seed's mask is all ones.


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, h: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        m = mask.unsqueeze(-1)
        return (h * m).sum(1) / m.sum(1).clamp(min=1e-9)


batch_size = 4
seq_len = 24
hidden = 32


def get_inputs():
    return [torch.randn(batch_size, seq_len, hidden), torch.ones(batch_size, seq_len)]


def get_init_inputs():
    return []
