"""The check's secret seed learnt by a thread the constructor starts in the free phase (no op, no name changed,
no harness object touched): it spins with a 1 us switch interval, and whenever the harness's thread is inside the
task's get_inputs (called from taskref.make_inputs, after torch.manual_seed(seed) and before the reseed) it keeps
torch.initial_seed() (no op) and the input set from the harness's set_inputs frame (sys._current_frames). The
forward then makes its input again in numpy (torch's CPU mt19937 and normal_fill), computes the softmax there, and
a Triton copy kernel writes it (counted; on the probe it writes the poison). Should be refused: a thread of the
answer's must not see the harness's frames while the check's seed is set. Today it is FAIL_MISMATCH only because
the thread seldom gets the GIL in that moment (outside the sandbox, a loop of taskref.set_inputs with this spy saw
the seed in about 1 of 100 calls): nothing in the wall stops it; h_signal_timer_seed_leak and
h_profile_func_seed_leak run on the harness's own thread instead, and PASS."""
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
STARTED = []


def spy(main):
    while True:
        f = sys._current_frames().get(main)
        g, input_set, in_inputs = f, None, False
        while g is not None:
            if g.f_code.co_name == "get_inputs" and g.f_back is not None and g.f_back.f_code.co_name == "make_inputs":
                in_inputs = True
            if in_inputs and g.f_code.co_name == "set_inputs":
                input_set = g.f_locals.get("input_set")
                SEEN[:] = [(torch.initial_seed(), input_set)]
                break
            g = g.f_back
        del f, g


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
        if not STARTED:
            import threading
            sys.setswitchinterval(1e-6)
            threading.Thread(target=spy, args=(threading.get_ident(),), daemon=True).start()
            STARTED.append(True)

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
