import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def dq_linear_kernel(x_ptr, q_ptr, s_ptr, y_ptr, IN, OUT, G, GROUP: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)  # one (row, out feature)
    b = pid // OUT
    o = pid % OUT
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for i0 in range(0, IN, BLOCK):
        i = i0 + tl.arange(0, BLOCK)
        m = i < IN
        x = tl.load(x_ptr + b * IN + i, mask=m, other=0.0)
        q = tl.load(q_ptr + o * IN + i, mask=m, other=8)
        s = tl.load(s_ptr + o * G + i // GROUP, mask=m, other=0.0)
        acc += x * ((q - 8).to(tl.float32) * s)  # symmetric int4: the zero point is 8
    tl.store(y_ptr + pid, tl.sum(acc, axis=0))


class ModelNew(nn.Module):
    """WRONG: symmetric int4 assumed, every group's zero point taken as 8 (the constructor's) instead of read from
    `zeros`; an asymmetric GPTQ checkpoint stores each group's zero point in 0..15. constant_discrete leaves an integer
    tensor of one value other than 0 or 1 as structure (neither a mask, a perm nor an index)."""

    def __init__(self, in_features: int, out_features: int, group: int):
        super().__init__()
        self.group = group
        self.register_buffer("qweight", torch.randint(0, 16, (out_features, in_features), dtype=torch.int32))
        self.scales = nn.Parameter(torch.rand(out_features, in_features // group) * 0.02 + 0.01)
        self.register_buffer("zeros", torch.full((out_features, in_features // group), 8, dtype=torch.int32))

    def forward(self, x):
        x = x.contiguous()
        B, IN = x.shape
        OUT = self.qweight.shape[0]
        y = torch.empty((B, OUT), device=x.device, dtype=x.dtype)
        dq_linear_kernel[(B * OUT,)](x, self.qweight, self.scales, y, IN, OUT, IN // self.group,
                                     GROUP=self.group, BLOCK=64)
        return y
