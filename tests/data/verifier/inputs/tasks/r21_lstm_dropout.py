import torch
import torch.nn as nn

# A mined task whose reference is random in training mode through a module tasks/runmode.py does not switch: an LSTM
# drops between its layers (dropout=0.5). The harness runs it as constructed (training mode); its reference must be
# refused as nondeterministic, never judged against a mask no answer can draw.


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
