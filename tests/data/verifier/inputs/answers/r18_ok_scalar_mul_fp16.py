import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scale_kernel(a_ptr, c_ptr, s, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask)
    tl.store(c_ptr + offs, (a * s).to(a.dtype), mask=mask)


class ModelNew(nn.Module):
    """A * s, fp16 in and out."""

    def __init__(self):
        super().__init__()

    def forward(self, A, s):
        A = A.contiguous()
        C = torch.empty_like(A)
        n = A.numel()
        scale_kernel[(triton.cdiv(n, 2048),)](A, C, s, n, BLOCK=2048)
        return C
