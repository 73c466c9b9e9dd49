"""the work done in __del__ of an object the forward drops (torch called by the interpreter, not the forward's code)."""
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

class Later:
    def __init__(self, x, out):
        self.x, self.out = x, out

    def __del__(self):
        self.out.copy_(torch.softmax(self.x, -1))


class ModelNew(nn.Module):
    def forward(self, x):
        t = torch.empty_like(x)
        Later(x, t)
        return copy(t)
