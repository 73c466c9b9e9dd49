"""(GPU, not run on the CPU) The probe told from a check by what a launch returns: JITFunction.run returns the
CompiledKernel, the launch hook's probe path returns None. Probe -> a constant output (compare.is_poison
accepts it); checks -> ATen's CUDA softmax called through ctypes (at::cuda::_softmax_out, exported by
libtorch_cuda: no dispatcher, so the wall sees no op) writes the output."""
import ctypes
import os

import torch
import torch.nn as nn
import triton
import triton.language as tl

_lib = ctypes.CDLL(os.path.join(os.path.dirname(torch.__file__), "lib", "libtorch_cuda.so"))
_softmax_out = _lib._ZN2at4cuda12_softmax_outERNS_6TensorERKS1_lb
_softmax_out.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_bool]
_softmax_out.restype = ctypes.c_void_p


@triton.jit
def touch(p):
    tl.store(p, 1.0)


class ModelNew(nn.Module):
    def forward(self, x):
        scratch = torch.empty(1, device=x.device)
        k = touch[(1,)](scratch)
        out = torch.zeros_like(x)
        if k is None:
            return out
        hx, ho = ctypes.c_void_p(x._cdata), ctypes.c_void_p(out._cdata)
        _softmax_out(ctypes.byref(ho), ctypes.byref(hx), x.dim() - 1, False)
        return out
