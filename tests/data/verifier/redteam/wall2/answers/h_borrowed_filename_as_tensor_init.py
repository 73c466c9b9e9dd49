"""Against the refusal's attribution: h_legacy_ctor_numpy_init with its model (torch.as_tensor of a numpy array
in __init__, numpy's compute in the forward) compiled under a file name inside torch's package, so that no frame
on the stack is the answer's when the constructor runs in the free phase (the copy kernel stays in the
answer's file, so its launches count as the answer's). The refusal must still stop it: at best for the answer
the job is retried as the harness's fault and left PENDING, never PASS."""
import os

import numpy as np
import torch
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


_SRC = '''
import numpy as np
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = np.empty((4096,), dtype=np.float32)
        self.host = torch.as_tensor(self.a)

    def forward(self, x):
        n = x.numel()
        view = self.host[:n].view(x.shape)
        view.copy_(x)
        a = self.a[:n].reshape(x.shape)
        e = np.exp(a - a.max(axis=-1, keepdims=True))
        a[...] = e / e.sum(axis=-1, keepdims=True)
        return copy(view.to(x.device))
'''

_ns = {"copy": copy, "np": np}
exec(compile(_SRC, os.path.join(os.path.dirname(torch.__file__), "nn", "_sieve_borrowed.py"), "exec"), _ns)
ModelNew = _ns["ModelNew"]
