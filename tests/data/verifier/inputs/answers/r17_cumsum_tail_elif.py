import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def cumsum_kernel(x_ptr, y_ptr, N, BODY: tl.constexpr, HALF: tl.constexpr):
    # body in unmasked chunks of BODY, then the tail: an unmasked HALF-chunk where one fits, else a masked one
    row = tl.program_id(0)
    base = row * N
    carry = tl.zeros((), tl.float32)
    n_body = (N // BODY) * BODY
    for c0 in range(0, n_body, BODY):
        cols = c0 + tl.arange(0, BODY)
        x = tl.load(x_ptr + base + cols)
        tl.store(y_ptr + base + cols, tl.cumsum(x, axis=0) + carry)
        carry += tl.sum(x, axis=0)
    rem = N - n_body
    if rem >= HALF:
        cols = n_body + tl.arange(0, HALF)
        x = tl.load(x_ptr + base + cols)
        tl.store(y_ptr + base + cols, tl.cumsum(x, axis=0) + carry)
        carry += tl.sum(x, axis=0)
    elif rem > 0:
        # the bug: `elif` where a second `if` (on what is left after the half-chunk) belongs: a tail of
        # HALF + r columns (r > 0) leaves its last r columns unwritten
        cols = n_body + tl.arange(0, HALF)
        m = cols < N
        x = tl.load(x_ptr + base + cols, mask=m, other=0.0)
        tl.store(y_ptr + base + cols, tl.cumsum(x, axis=0) + carry, mask=m)


class ModelNew(nn.Module):
    """Wrong: chunked scan whose two-level tail (32 unmasked, then masked) drops the rest after a 32-chunk."""

    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        x = x.contiguous()
        M, N = x.shape
        y = torch.empty_like(x)
        cumsum_kernel[(M,)](x, y, N, BODY=64, HALF=32)
        return y
