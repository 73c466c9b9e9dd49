import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def temp_softmax_kernel(x_ptr, t_ptr, y_ptr, N, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    o = tl.arange(0, BLOCK)
    m = o < N
    t = tl.load(t_ptr)
    x = tl.load(x_ptr + r * N + o, mask=m, other=float("-inf")) / t
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + r * N + o, e / tl.sum(e, axis=0), mask=m)


class ModelNew(nn.Module):
    """WRONG: the per-row temperature read as one scalar (its first element) for every row."""

    def __init__(self):
        super().__init__()

    def forward(self, x, temperature):
        x = x.contiguous()
        B, N = x.shape
        y = torch.empty_like(x)
        temp_softmax_kernel[(B,)](x, temperature.contiguous(), y, N, BLOCK=triton.next_power_of_2(N))
        return y
