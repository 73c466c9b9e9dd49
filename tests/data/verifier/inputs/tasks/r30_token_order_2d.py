import torch
import torch.nn as nn

# A token order kept as a persistent (H, W) int64 buffer (a scan order over an H x W patch grid, as a checkpoint of a
# vision model that learned or searched its order stores it): y[b, i*W + j, :] = x[b, order[i, j], :] * gain.
# The constructor's order is the column-major scan (the transpose); a checkpoint holds whichever order it was trained
# with.


class Model(nn.Module):
    def __init__(self, h: int, w: int, dim: int):
        super().__init__()
        self.register_buffer("order", torch.arange(h * w, dtype=torch.int64).view(w, h).t().contiguous())
        self.gain = nn.Parameter(torch.ones(dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x[:, self.order.reshape(-1), :] * self.gain


batch_size = 2
h = 4
w = 4
dim = 32


def get_inputs():
    return [torch.randn(batch_size, h * w, dim)]


def get_init_inputs():
    return [h, w, dim]
