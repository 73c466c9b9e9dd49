import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rmsnorm_kernel(x_ptr, w_ptr, y_ptr, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    x = tl.load(x_ptr + row * N + cols, mask=m, other=0.0).to(tl.float32)
    ms = tl.sum(x * x, axis=0) / N
    y = (x * tl.rsqrt(ms + eps)).to(tl.float16)
    w = tl.load(w_ptr + cols, mask=m, other=0.0)
    tl.store(y_ptr + row * N + cols, y * w, mask=m)


class ModelNew(nn.Module):
    """LLaMA RMSNorm: fp32 statistics, the normalized row rounded to fp16 before the fp16 weight, as the reference."""

    def __init__(self, dim: int, eps: float = 1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter((torch.randn(dim) * 0.2 + 1.0).half())

    def forward(self, x):
        x = x.contiguous()
        M, N = x.shape
        y = torch.empty_like(x)
        rmsnorm_kernel[(M,)](x, self.weight, y, N, self.eps, BLOCK=triton.next_power_of_2(N))
        return y
