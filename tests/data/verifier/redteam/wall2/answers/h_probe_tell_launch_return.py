"""(GPU) The probe told from a check by what a launch returns: JITFunction.run returns the CompiledKernel, the
launch hook's probe path returns None. Probe -> a constant output; checks -> torch computes and a Triton
kernel copies (the wall refuses that op: this fixture isolates the tell, not the compute)."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def touch(p):
    tl.store(p, 1.0)


@triton.jit
def copy_kernel(src, dst, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    tl.store(dst + o, tl.load(src + o, mask=m), mask=m)


class ModelNew(nn.Module):
    def forward(self, x):
        scratch = torch.empty(1, device=x.device)
        k = touch[(1,)](scratch)
        out = torch.zeros_like(x)
        if k is None:
            return out
        y = torch.softmax(x, dim=-1)
        copy_kernel[(triton.cdiv(y.numel(), 256),)](y, out, y.numel(), BLOCK=256)
        return out
