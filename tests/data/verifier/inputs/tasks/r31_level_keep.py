import torch
import torch.nn as nn

# Multi-level token pooling: the tokens of several feature levels are flattened into one sequence (Deformable
# DETR's layout), `level_start` the index where each level starts; each level is mean-pooled, and a per-level keep
# mask (a pruned checkpoint drops levels) zeroes the dropped ones.


class Model(nn.Module):
    def __init__(self, level_sizes: list):
        super().__init__()
        starts = [0]
        for s in level_sizes[:-1]:
            starts.append(starts[-1] + s)
        self.total = sum(level_sizes)
        self.register_buffer("level_start", torch.tensor(starts, dtype=torch.int64))
        self.register_buffer("level_keep", torch.ones(len(level_sizes), dtype=torch.bool))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        sizes = torch.diff(self.level_start, append=torch.tensor([x.shape[1]], device=x.device)).tolist()
        pooled = torch.stack([p.mean(dim=1) for p in x.split(sizes, dim=1)], dim=1)  # (B, levels, D)
        return pooled * self.level_keep.view(1, -1, 1).to(x.dtype)


def get_inputs():
    return [torch.randn(4, 64, 16)]


def get_init_inputs():
    return [[16, 16, 16, 16]]
