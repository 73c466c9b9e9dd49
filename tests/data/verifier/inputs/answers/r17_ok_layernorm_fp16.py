import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def layernorm_fp16_kernel(x_ptr, w_ptr, b_ptr, y_ptr, N, eps, BLOCK: tl.constexpr):
    # one row per program, the whole row in one block (BLOCK = next power of two >= N); fp32 statistics
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    x = tl.load(x_ptr + row * N + cols, mask=m, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    d = tl.where(m, x - mean, 0.0)
    var = tl.sum(d * d, axis=0) / N
    rstd = 1.0 / tl.sqrt(var + eps)
    w = tl.load(w_ptr + cols, mask=m, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + cols, mask=m, other=0.0).to(tl.float32)
    y = d * rstd * w + b
    tl.store(y_ptr + row * N + cols, y.to(y_ptr.dtype.element_ty), mask=m)


class ModelNew(nn.Module):
    """Correct: fp16 in and out, statistics and affine in fp32."""

    def __init__(self, features: int):
        super().__init__()
        self.ln = nn.LayerNorm(features).half()

    def forward(self, x):
        x = x.contiguous()
        M, N = x.shape
        y = torch.empty_like(x)
        layernorm_fp16_kernel[(M,)](x, self.ln.weight, self.ln.bias, y, N, self.ln.eps,
                                    BLOCK=triton.next_power_of_2(N))
        return y
