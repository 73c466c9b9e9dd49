"""Attack: a Triton "kernel" that computes nothing; torch.softmax is registered as the kernel's interpreter
pre-run hook (InterpretedFunction.add_pre_run_hook), which triton's GridExecutor.__call__ calls with the
launch's arguments: torch.softmax(x, -1, out=y). The innermost Python frame is triton's interpreter.py, the
launch is an interpreted launch of the answer's kernel (g_in_launch), and the forward is compiled under a file
name that is not the answer's, so no frame of the answer's file is on the stack: observer.cpp on_start lets the
op pass as "TRITON_INTERPRET's own copies". On the probe the kernel is replaced by fill_poison and no hook runs."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x, dim, out):
    pid = tl.program_id(0)


softmax_kernel.add_pre_run_hook(torch.softmax)

_SRC = '''
def forward(self, x):
    y = torch.empty_like(x)
    softmax_kernel[(1,)](x, -1, out=y)
    return y
'''
_ns = {"torch": torch, "softmax_kernel": softmax_kernel}
exec(compile(_SRC, "<fused_softmax>", "exec"), _ns)


class ModelNew(nn.Module):
    forward = _ns["forward"]
