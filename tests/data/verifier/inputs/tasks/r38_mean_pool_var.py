import torch
import torch.nn as nn

# Mean pooling of token states under an attention mask (int64, as a tokenizer returns it), then each feature divided
# by the square root of a per-feature variance passed in by the caller (a whitening step calibrated offline).
# get_inputs pads nothing and has calibrated nothing: every seed's mask is all ones and its variance all ones.


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, h: torch.Tensor, attention_mask: torch.Tensor, var: torch.Tensor) -> torch.Tensor:
        m = attention_mask.unsqueeze(-1).to(h.dtype)
        pooled = (h * m).sum(1) / m.sum(1).clamp(min=1e-9)
        return pooled / torch.sqrt(var)


batch_size = 4
seq_len = 24
hidden = 32


def get_inputs():
    return [torch.randn(batch_size, seq_len, hidden), torch.ones(batch_size, seq_len, dtype=torch.long),
            torch.ones(hidden)]


def get_init_inputs():
    return []
