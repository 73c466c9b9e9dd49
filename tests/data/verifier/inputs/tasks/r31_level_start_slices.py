import torch
import torch.nn as nn

# Deformable DETR's level_start_index: where each feature level's tokens start in the flattened sequence, derived
# from the levels' spatial shapes (8x8, 4x4, 2x2, 1x1), kept as a buffer beside them. Each level is mean-pooled.


class Model(nn.Module):
    def __init__(self, shapes: list):
        super().__init__()
        spatial = torch.tensor(shapes, dtype=torch.int64)
        self.register_buffer("spatial_shapes", spatial)
        self.register_buffer("level_start_index", torch.cat([spatial.new_zeros(1), spatial.prod(1).cumsum(0)[:-1]]))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        n, L = self.level_start_index.numel(), x.shape[1]
        outs = []
        for lvl in range(n):
            s = int(self.level_start_index[lvl])
            e = int(self.level_start_index[lvl + 1]) if lvl + 1 < n else L
            outs.append(x[:, s:e].mean(dim=1))
        return torch.stack(outs, dim=1)  # (B, levels, D)


def get_inputs():
    return [torch.randn(4, 85, 16)]


def get_init_inputs():
    return [[[8, 8], [4, 4], [2, 2], [1, 1]]]
