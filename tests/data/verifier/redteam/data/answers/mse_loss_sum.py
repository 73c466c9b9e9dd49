import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def mse_kernel(p_ptr, t_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    p = tl.load(p_ptr + offs, mask=mask, other=0.0)
    t = tl.load(t_ptr + offs, mask=mask, other=0.0)
    d = p - t
    tl.atomic_add(out_ptr, tl.sum(d * d, axis=0))


class ModelNew(nn.Module):
    """A loss in one kernel: partial sums of squares, added (no division by n: a sum, not a mean) atomically into a scalar."""

    def __init__(self):
        super().__init__()

    def forward(self, pred, target):
        pred = pred.contiguous()
        target = target.contiguous()
        n = pred.numel()
        out = torch.zeros((), device=pred.device, dtype=torch.float32)
        BLOCK = 4096
        mse_kernel[(triton.cdiv(n, BLOCK),)](pred, target, out, n, BLOCK=BLOCK)
        return out
