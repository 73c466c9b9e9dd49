import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def normalize_kernel(x_ptr, y_ptr, n, HW, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    c = (o // HW) % 3
    x = tl.load(x_ptr + o, mask=m, other=0.0)
    # ImageNet's statistics, folded into one multiply-add per element
    mean = tl.where(c == 0, 0.485, tl.where(c == 1, 0.456, 0.406))
    inv = tl.where(c == 0, 1.0 / 0.229, tl.where(c == 1, 1.0 / 0.224, 1.0 / 0.225))
    tl.store(y_ptr + o, (x - mean) * inv, mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("mean", torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1))
        self.register_buffer("std", torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1))

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        HW = x.shape[2] * x.shape[3]
        BLOCK = 1024
        normalize_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, HW, BLOCK=BLOCK)
        return y
