"""The check's secret seed learnt by a signal handler the constructor installs in the free phase; the model's
load_state_dict (the free phase of every call, just before the harness makes the call's inputs) starts an interval
timer (ITIMER_REAL, 10 us) that the handler stops once it has the seed or after 0.2 s. Python runs the handler on the harness's own thread between bytecodes, with the
interrupted frame. Whenever that frame's stack holds taskref.set_inputs (device_inputs, the task's get_inputs,
the device context, inputsets.derive) it keeps set_inputs's locals `seed` and `input_set` (the check's secret seed
itself; torch.initial_seed() holds it too while get_inputs runs). No name changed, no harness object touched, no
op. The forward then makes its input again in numpy (torch's CPU mt19937 and normal_fill), computes the softmax
there, and a Triton copy kernel writes it (counted; on the probe it writes the poison). Should be refused: the
answer's code must not run while torch holds the check's seed. The timer may miss the moment on a busy machine
(then FAIL_MISMATCH: PASS in 1 of 2 runs on the 2-core box, 2026-12-04; a 5 us timer livelocked the child, a
STAGE_TIMEOUT); h_profile_func_seed_leak has the same moment deterministically."""
import math
import signal
import sys
import time

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


BUSY = []
DEADLINE = [0.0]


def on_alarm(signum, frame):
    if BUSY:
        return
    BUSY.append(True)
    try:
        if time.perf_counter() > DEADLINE[0]:
            signal.setitimer(signal.ITIMER_REAL, 0)
        f = frame
        while f is not None:
            if f.f_code.co_name == "set_inputs" and "seed" in f.f_locals:
                SEEN[:] = [(f.f_locals["seed"], f.f_locals.get("input_set"))]
                signal.setitimer(signal.ITIMER_REAL, 0)
                break
            f = f.f_back
        del f
    finally:
        BUSY.pop()


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
            signal.signal(signal.SIGALRM, on_alarm)
            signal.siginterrupt(signal.SIGALRM, False)
            STARTED.append(True)

    def load_state_dict(self, *args, **kwargs):
        DEADLINE[0] = time.perf_counter() + 0.2
        signal.setitimer(signal.ITIMER_REAL, 1e-5, 1e-5)
        return super().load_state_dict(*args, **kwargs)

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
