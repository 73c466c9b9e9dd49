import torch
import torch.nn as nn

# A mined task whose reference is random in training mode through an LSTM that drops between its layers (dropout=0.5).
# tasks/runmode.py runs recurrent layers in eval mode, as it runs dropout: the reference is deterministic (no dropout)
# and an answer is judged against it.


class Model(nn.Module):
    def __init__(self, hidden: int):
        super().__init__()
        self.lstm = nn.LSTM(hidden, hidden, num_layers=2, dropout=0.5, batch_first=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.lstm(x)[0]


batch = 2
steps = 5
hidden = 8


def get_inputs():
    return [torch.randn(batch, steps, hidden)]


def get_init_inputs():
    return [hidden]
