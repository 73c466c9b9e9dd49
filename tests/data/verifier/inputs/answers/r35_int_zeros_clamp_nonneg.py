import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def dq_linear_kernel(x_ptr, q_ptr, s_ptr, z_ptr, y_ptr, IN, OUT, G, GROUP: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)  # one (row, out feature)
    b = pid // OUT
    o = pid % OUT
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for i0 in range(0, IN, BLOCK):
        i = i0 + tl.arange(0, BLOCK)
        m = i < IN
        x = tl.load(x_ptr + b * IN + i, mask=m, other=0.0)
        q = tl.load(q_ptr + o * IN + i, mask=m, other=0)
        s = tl.load(s_ptr + o * G + i // GROUP, mask=m, other=0.0)
        z = tl.maximum(tl.load(z_ptr + o * G + i // GROUP, mask=m, other=0), 0)  # "a zero point is never negative"
        acc += x * ((q - z).to(tl.float32) * s)
    tl.store(y_ptr + pid, tl.sum(acc, axis=0))


class ModelNew(nn.Module):
    """WRONG: reads every group's zero point but clamps it at 0: a signed checkpoint whose calibration stored -3 is
    dequantized around 0. Written against a7c3bf6, where a one-valued signed integer constant stays on its own side of
    0 in every set (so that drawn quantizer bounds never cross)."""

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
        dq_linear_kernel[(B * OUT,)](x, self.qweight, self.scales, self.zeros, y, IN, OUT, IN // self.group,
                                     GROUP=self.group, BLOCK=64)
        return y
