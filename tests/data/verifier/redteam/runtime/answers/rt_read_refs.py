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
    # TRITON_CACHE_DIR is cache_dir/candidates/<code hash>/triton: the worker's folder is a few levels up
    found, cache = [], os.environ["TRITON_CACHE_DIR"]
    for _ in range(4):
        cache = os.path.dirname(cache)
        for sub in ("refs", "native", "tasks"):
            try:
                for n in os.listdir(os.path.join(cache, sub)):
                    if not n.endswith(".py"):
                        with open(os.path.join(cache, sub, n), "rb") as f:
                            found.append((n, len(f.read())))
            except OSError:
                pass
    if not found:
        raise RuntimeError("held: no reference file is visible")


class ModelNew(nn.Module):
    """looks for the reference outputs in the cache dir (next to TRITON_CACHE_DIR)."""

    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        attack()  # returns only when the attack worked
        return add(a.contiguous(), b.contiguous())
