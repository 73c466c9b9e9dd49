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
    bad = []
    for n in os.listdir("/proc/self/fd"):
        try:
            t = os.readlink(f"/proc/self/fd/{n}")
        except OSError:
            continue
        if t.startswith("socket:") or t.startswith("anon_inode:[eventpoll]") or "/refs/" in t:
            bad.append((n, t))
    if bad:
        raise RuntimeError(f"leaked fds: {bad}")


class ModelNew(nn.Module):
    """correct, but lists its fds: only its pipes, the GPU lock, the log and /dev/null may be open (no socket, no worker pipe). CPU only: on a GPU the driver opens a socket of its own once CUDA starts; the verdict's sandbox.fds (listed before any CUDA or sample code) is checked on both."""

    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        attack()  # returns only when the attack worked
        return add(a.contiguous(), b.contiguous())
