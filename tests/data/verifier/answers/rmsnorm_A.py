import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rmsnorm_A(x_ptr, w_ptr, y_ptr, N, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)              # one program per row
    cols = tl.arange(0, BLOCK_N)         # BLOCK_N >= N: whole row in one tile
    mask = cols < N
    x = tl.load(x_ptr + row * N + cols, mask=mask, other=0.0).to(tl.float32)
    rms = tl.rsqrt(tl.sum(x * x, axis=0) / N + eps)   # single-pass reduce
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * N + cols, (x * rms * w).to(tl.float16), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(dim, dtype=torch.float16))
        self.eps = eps

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        M, N = x.shape
        rmsnorm_A[(M,)](x, self.weight, y, N, self.eps, BLOCK_N=triton.next_power_of_2(N))
        return y
