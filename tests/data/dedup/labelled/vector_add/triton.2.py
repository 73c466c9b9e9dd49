import torch
import triton
import triton.language as tl


@triton.jit
def _vadd(X, Y, Z, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < N
    tl.store(Z + offs, tl.load(X + offs, mask=m) + tl.load(Y + offs, mask=m), mask=m)


class ModelNew(torch.nn.Module):
    def forward(self, a, b):
        c = torch.empty_like(a)
        n = c.numel()
        _vadd[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](a, b, c, n, BLOCK=256)
        return c
