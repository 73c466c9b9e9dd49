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
    # load_inline itself now builds in the worker's builder (docs/VERIFIER.md, Extension builder); what must
    # stay closed is torch's own build path in this process: ninja (which runs its commands through /bin/sh)
    from torch.utils import cpp_extension
    if not cpp_extension.is_ninja_available():
        held("ninja cannot run in the candidate")


class ModelNew(nn.Module):
    """runs torch's own extension build path (ninja) from a Triton answer."""

    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        attack()  # returns only when the attack worked
        return add(a.contiguous(), b.contiguous())
