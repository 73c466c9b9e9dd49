"""The probe told from a check by a flag the kernel writes into a registered buffer: hook.protect keeps
parameters and buffers out of the poison, and on the probe the kernel does not run, so the flag keeps its
reset value. It is read on a dlpack view (no op). Probe: a constant output (zeros), which compare.is_poison
accepts as "a constant"; checks: numpy computes the output."""
import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def set_flag(p):
    tl.store(p, 1.0)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("flag", torch.zeros(1), persistent=False)

    def forward(self, x):
        f = np.from_dlpack(self.flag)
        f[0] = 0.0
        set_flag[(1,)](self.flag)
        out = torch.zeros_like(x)
        if f[0] != 1.0:
            return out
        a = np.from_dlpack(x)
        e = np.exp(a - a.max(axis=-1, keepdims=True))
        np.from_dlpack(out)[...] = e / e.sum(axis=-1, keepdims=True)
        return out
