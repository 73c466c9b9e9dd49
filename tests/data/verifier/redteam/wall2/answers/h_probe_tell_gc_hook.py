"""The probe told from a check through gc: the child's LaunchHook object is reachable with gc.get_objects(),
and its .poison is the secret value during the probe's forward. On the probe the output is that poison
(torch.full, an allocation); on the checks numpy computes the output on dlpack views and a Triton kernel
runs on a scratch buffer.
Written for the CPU: it hands CPU tensors to Triton, which a GPU build refuses (FAIL_RUNTIME on the H100,
2026-12-05)."""
import gc

import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def touch(p):
    tl.store(p, 1.0)


_HOOK = []


def _hook():
    if not _HOOK:
        _HOOK.extend(o for o in gc.get_objects() if type(o).__name__ == "LaunchHook")
    return _HOOK[0]


class ModelNew(nn.Module):
    def forward(self, x):
        scratch = torch.empty(1)
        touch[(1,)](scratch)
        p = getattr(_hook(), "poison", None) or getattr(_hook(), "_poison", None)
        if p is not None:
            return torch.full_like(x, float(p))
        out = torch.empty_like(x)
        a = np.from_dlpack(x)
        e = np.exp(a - a.max(axis=-1, keepdims=True))
        np.from_dlpack(out)[...] = e / e.sum(axis=-1, keepdims=True)
        return out
