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


class IoVec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]


def attack():
    buf = ctypes.create_string_buffer(16)
    local = IoVec(ctypes.cast(buf, ctypes.c_void_p), 16)
    remote = IoVec(ctypes.cast(buf, ctypes.c_void_p), 16)
    if libc.process_vm_readv(1, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0) < 0:
        held("process_vm_readv")


class ModelNew(nn.Module):
    """process_vm_readv of pid 1 (the parent's memory in a shared PID namespace)."""

    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        attack()  # returns only when the attack worked
        return add(a.contiguous(), b.contiguous())
