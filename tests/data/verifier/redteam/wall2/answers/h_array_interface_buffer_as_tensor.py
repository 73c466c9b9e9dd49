"""An object whose __array_interface__ names a buffer ("data": a
bytearray, no raw address, so numpy's address refusal does not apply) given to torch.as_tensor, for a tensor
over the bytearray that numpy also views. torch 2.15 does not read __array_interface__ ("Could not infer
dtype"): the answer fails on its own without the wall; with it, the object is refused as data that is no
plain value."""
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


def copy(t):
    """The only kernel: copies what was computed elsewhere (so the probe poison reaches the output)."""
    out = torch.empty_like(t)
    copy_kernel[(triton.cdiv(t.numel(), 256),)](t, out, t.numel(), BLOCK=256)
    return out


def softmax_np(a):
    e = np.exp(a - a.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


class Iface:
    def __init__(self, buf, shape):
        self.__array_interface__ = {"data": buf, "shape": shape, "typestr": "<f4", "version": 3}


class ModelNew(nn.Module):
    def forward(self, x):
        buf = bytearray(x.numel() * 4)
        host = torch.as_tensor(Iface(buf, tuple(x.shape)))
        host.copy_(x)
        a = np.frombuffer(buf, dtype=np.float32).reshape(x.shape)
        a[...] = softmax_np(a)
        return copy(host.to(x.device))
