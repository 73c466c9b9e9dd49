import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def var_eps_kernel(x_ptr, v_ptr, e_ptr, y_ptr, n, C, L, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    c = (o // L) % C
    x = tl.load(x_ptr + o, mask=m, other=0.0)
    v = tl.load(v_ptr + c, mask=m, other=1.0)
    e = tl.load(e_ptr + c, mask=m, other=0.0)
    tl.store(y_ptr + o, x / tl.sqrt(v + e), mask=m)


class ModelNew(nn.Module):
    """RIGHT: y = x / sqrt(var + eps), the two kept in broadcast shape (1, C, 1) under other names (routed by value:
    Child.route_unloaded), checked under params_abs at every shape."""

    def __init__(self, channels: int):
        super().__init__()
        self.running_scale = nn.Parameter(torch.ones(1, channels, 1))
        self.stab = nn.Parameter(torch.full((1, channels, 1), 1e-5))

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n, C, L = x.numel(), x.shape[1], x.shape[2]
        var_eps_kernel[(triton.cdiv(n, 1024),)](x, self.running_scale, self.stab, y, n, C, L, BLOCK=1024)
        return y
