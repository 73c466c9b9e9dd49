import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def seg_add_kernel(x_ptr, b_ptr, y_ptr, H, BLOCK_H: tl.constexpr):
    i = tl.program_id(0)
    o = tl.program_id(1) * BLOCK_H + tl.arange(0, BLOCK_H)
    m = o < H
    g = tl.load(b_ptr + i)
    tl.atomic_add(y_ptr + g * H + o, tl.load(x_ptr + i * H + o, mask=m, other=0.0), mask=m)


class ModelNew(nn.Module):
    """CORRECT: global_add_pool: each node's features atomically added into its graph's row."""

    def __init__(self, num_graphs):
        super().__init__()
        self.num_graphs = num_graphs

    def forward(self, x, batch):
        x = x.contiguous()
        N, H = x.shape
        G = self.num_graphs
        y = torch.zeros((G, H), device=x.device, dtype=x.dtype)
        seg_add_kernel[(N, triton.cdiv(H, 32))](x, batch.contiguous(), y, H, BLOCK_H=32)
        return y
