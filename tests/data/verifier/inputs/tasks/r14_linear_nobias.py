import torch
import torch.nn as nn

# nn.Linear without bias (weights are parameters), small; fixtures judge it at a loose tolerance as level-2 suites do


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features, bias=False)

    def forward(self, x):
        return self.fc(x)


batch_size = 32
in_features = 128
out_features = 64


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
