"""The check's secret seed learnt from the task module, whose names are in no snapshot (the wall snapshots torch's
namespaces and the harness's modules, not the task's): the constructor puts a proxy in the task module's `torch`,
whose __getattr__ runs when get_inputs looks up `torch.randn`, right after taskref.make_inputs seeded torch with
the check's seed. It keeps torch.initial_seed() and the input set (from the harness's set_inputs frame) and hands
back the real torch.randn, so no frame of the answer's is on the stack when the op runs. The forward then makes
its input again in numpy (torch's CPU mt19937 and normal_fill, bit for bit but for the last float rounding), with
the derived set's transform, computes the softmax there, and a Triton copy kernel writes it (counted; on the probe
it writes the poison). No op, no read of the input. Should be refused: the task module's names are the harness's
and must not change."""
import math
import sys

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


SEEN = []


class Proxy:
    def __init__(self, real):
        object.__setattr__(self, "_real", real)

    def __getattr__(self, name):
        real = object.__getattribute__(self, "_real")
        if name.startswith("rand"):
            f, input_set = sys._getframe(1), None
            while f is not None and "input_set" not in f.f_locals:
                f = f.f_back
            input_set = f.f_locals["input_set"] if f is not None else None
            SEEN[:] = [(real.initial_seed(), input_set)]
        return getattr(real, name)


def torch_cpu_randn(seed, n):
    rs = np.random.RandomState(seed & 0xFFFFFFFF)

    def uni(k):
        r = np.frombuffer(rs.bytes(4 * k), dtype="<u4")
        return (r & 0xFFFFFF).astype(np.float32) * np.float32(2.0 ** -24)

    data = uni(n)

    def fill16(d):
        u1 = np.float32(1) - d[:8]
        u2 = d[8:16].copy()
        radius = np.sqrt(np.float32(-2) * np.log(u1))
        theta = np.float32(2.0 * math.pi) * u2
        d[:8] = radius * np.cos(theta)
        d[8:16] = radius * np.sin(theta)

    for i in range(0, n - 15, 16):
        fill16(data[i:i + 16])
    if n % 16:
        data[n - 16:] = uni(16)
        fill16(data[n - 16:])
    return data


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        task = sys.modules.get("sieve_task")
        if task is not None and not isinstance(task.__dict__.get("torch"), Proxy):
            task.torch = Proxy(torch)

    def forward(self, x):
        seed, input_set = SEEN[0] if SEEN else (0, None)
        a = torch_cpu_randn(seed, x.numel()).reshape(tuple(x.shape)).astype(np.float64)
        if input_set == "wide":
            a = a * 256.0
        e = np.exp(a - a.max(axis=-1, keepdims=True))
        y = torch.tensor((e / e.sum(axis=-1, keepdims=True)).tolist(), dtype=x.dtype, device=x.device)
        out = torch.empty_like(y)
        n = y.numel()
        copy_kernel[(triton.cdiv(n, 256),)](y, out, n, BLOCK=256)
        return out
