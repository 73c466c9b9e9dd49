"""The mirror image: numpy.array(x) of a CPU tensor (Tensor.__array__, which is
Tensor.numpy) reads the input with no op; numpy computes; the result goes back as a list. Closed before
this round (Tensor.numpy is refused in the forward: FAIL_SHAM naming it)."""
import numpy as np
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
    """The only kernel: copies what was computed elsewhere (so the probe poison reaches the output)."""
    out = torch.empty_like(t)
    copy_kernel[(triton.cdiv(t.numel(), 256),)](t, out, t.numel(), BLOCK=256)
    return out


def softmax_np(a):
    e = np.exp(a - a.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


class ModelNew(nn.Module):
    def forward(self, x):
        a = np.array(x.cpu(), dtype=np.float32)
        host = torch.tensor(softmax_np(a).tolist(), dtype=torch.float32)
        return copy(host.to(x.device))
