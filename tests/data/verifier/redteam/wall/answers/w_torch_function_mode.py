"""a TorchFunctionMode makes a view call return the softmax."""
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


from torch.overrides import TorchFunctionMode


class Mode(TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        if func is torch.Tensor.view:
            return torch.softmax(args[0], -1)
        return func(*args, **(kwargs or {}))


class ModelNew(nn.Module):
    def forward(self, x):
        with Mode():
            y = x.view(x.shape)
        return copy(y)
