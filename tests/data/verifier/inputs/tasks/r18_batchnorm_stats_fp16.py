import torch
import torch.nn as nn

# BatchNorm2d in eval mode (set here: the harness keeps a task's own mode) with trained-looking running statistics
# and affine, half precision


class Model(nn.Module):
    def __init__(self, num_features: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(num_features=num_features)
        with torch.no_grad():
            self.bn.running_mean.copy_(torch.randn(num_features) * 0.5)
            self.bn.running_var.copy_(torch.rand(num_features) * 1.5 + 0.05)
            self.bn.weight.copy_(torch.rand(num_features) + 0.5)
            self.bn.bias.copy_(torch.randn(num_features) * 0.2)
        self.bn.half()
        self.eval()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.bn(x)


batch_size = 4
features = 16
dim1 = 12
dim2 = 40


def get_inputs():
    return [torch.randn(batch_size, features, dim1, dim2).half()]


def get_init_inputs():
    return [features]
