import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def seg_sum_kernel(x_ptr, y_ptr, per, H, BLOCK_H: tl.constexpr):
    g = tl.program_id(0)
    o = tl.program_id(1) * BLOCK_H + tl.arange(0, BLOCK_H)
    m = o < H
    acc = tl.zeros((BLOCK_H,), dtype=tl.float32)
    for t in range(0, per):
        acc += tl.load(x_ptr + (g * per + t) * H + o, mask=m, other=0.0)
    tl.store(y_ptr + g * H + o, acc, mask=m)


class ModelNew(nn.Module):
    """WRONG: global_add_pool that never reads the batch vector: it sums contiguous runs of N / G nodes, as if every
    graph had as many nodes and they came in order. Graphs of unequal size land in the wrong sums."""

    def __init__(self, num_graphs):
        super().__init__()
        self.num_graphs = num_graphs

    def forward(self, x, batch):
        x = x.contiguous()
        N, H = x.shape
        G = self.num_graphs
        y = torch.empty((G, H), device=x.device, dtype=x.dtype)
        seg_sum_kernel[(G, triton.cdiv(H, 32))](x, y, N // G, H, BLOCK_H=32)
        return y
