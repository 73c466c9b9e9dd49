import torch
import torch.nn as nn

# Sentence-transformers mean pooling: the mean of the token states where the attention mask is 1. The mask is an
# input (int64, as a tokenizer returns it); get_inputs pads nothing, so every seed's mask is all ones, as a batch of
# equal-length sentences gives.


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, h: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        m = attention_mask.unsqueeze(-1).to(h.dtype)
        return (h * m).sum(1) / m.sum(1).clamp(min=1e-9)


batch_size = 4
seq_len = 24
hidden = 32


def get_inputs():
    return [torch.randn(batch_size, seq_len, hidden), torch.ones(batch_size, seq_len, dtype=torch.long)]


def get_init_inputs():
    return []
