import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sign_kernel(x_ptr, s_ptr, w_ptr, y_ptr, N, C, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < N
    x = tl.load(x_ptr + o, mask=m, other=0.0)
    s = tl.load(s_ptr + o % C, mask=m, other=0)
    w = tl.load(w_ptr + o % C, mask=m, other=0.0)
    tl.store(y_ptr + o, tl.where(s != 0, x * w, 0.0), mask=m)


class ModelNew(nn.Module):
    """WRONG: reads the per-channel int8 sign as a keep flag (a channel of sign 0 zeroed, any other passed with its
    gain): a checkpoint's -1 is taken for +1. The constructor's sign of 1s is a "mask" whose draws are 0 alone
    (1 - flat): a signed integer of 1s is never taken below 0, only one of 0s is."""

    def __init__(self, channels: int):
        super().__init__()
        self.register_buffer("sign", torch.ones(channels, dtype=torch.int8))
        self.weight = nn.Parameter(torch.ones(channels))

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        N = x.numel()
        sign_kernel[(triton.cdiv(N, 512),)](x, self.sign, self.weight, y, N, x.shape[-1], BLOCK=512)
        return y
