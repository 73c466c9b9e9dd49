"""legit: tensors made from Python lists and numbers, as real answers do: a per-row scale vector built with
torch.as_tensor([...list...]) in __init__, a torch.tensor(list) of row offsets and a torch.as_tensor of a
Python float in the forward, all read by the kernel."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x, y, offs, scale, temp, cols, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    base = tl.load(offs + r)
    c = tl.arange(0, BLOCK)
    m = c < cols
    s = tl.load(scale + 0) * tl.load(temp)
    v = tl.load(x + base + c, mask=m, other=-float("inf")) * s
    e = tl.exp(v - tl.max(v, axis=0))
    e = tl.where(m, e, 0.0)
    tl.store(y + base + c, e / tl.sum(e, axis=0), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("scale", torch.as_tensor([1.0, 0.5, 0.25], dtype=torch.float32))

    def forward(self, x):
        rows, cols = x.shape
        x = x.contiguous()
        offs = torch.tensor([r * cols for r in range(rows)], dtype=torch.int64, device=x.device)
        temp = torch.as_tensor(1.0, dtype=torch.float32, device=x.device)
        y = torch.empty_like(x)
        softmax_kernel[(rows,)](x, y, offs, self.scale, temp, cols, BLOCK=triton.next_power_of_2(cols))
        return y
