"""a TorchDispatchMode turns the allowed empty_like into a softmax (nested under an allowed op)."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(src, dst, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    tl.store(dst + o, tl.load(src + o, mask=m), mask=m)


def copy(t):
    """The answer's only kernel: copies what torch computed (the probe's poison reaches the output)."""
    t = t.contiguous()
    y = torch.empty_like(t)
    n = t.numel()
    copy_kernel[(triton.cdiv(n, 1024),)](t, y, n, BLOCK=1024)
    return y


from torch.utils._python_dispatch import TorchDispatchMode


class Mode(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        if func is torch.ops.aten.empty_like.default:
            with torch.utils._python_dispatch._disable_current_modes():
                out.copy_(torch.softmax(args[0], -1))
        return out


class ModelNew(nn.Module):
    def forward(self, x):
        with Mode():
            t = torch.empty_like(x)
        return copy(t)
