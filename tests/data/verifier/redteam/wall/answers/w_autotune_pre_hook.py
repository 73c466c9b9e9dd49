"""the softmax computed in an autotune config's pre_hook."""
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


def _pre(nargs):
    nargs["src"].copy_(torch.softmax(nargs["src"], -1))


@triton.autotune(configs=[triton.Config({"BLOCK": 1024}, pre_hook=_pre)], key=["n"])
@triton.jit
def a_copy(src, dst, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    tl.store(dst + o, tl.load(src + o, mask=m), mask=m)


class ModelNew(nn.Module):
    def forward(self, x):
        t = x.clone()
        y = torch.empty_like(t)
        a_copy[lambda meta: (triton.cdiv(t.numel(), meta["BLOCK"]),)](t, y, t.numel())
        return y
