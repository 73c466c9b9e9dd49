"""Red team, stage 0 (hostile, issue 31): one helper moves a tensor to a device and, called again with a dtype, casts it; the first call is a no-op (t.to(x.device)), so a memo keyed without what the scalar argument is would take the second for one too and let torch's cast through under strict."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(c_ptr + offs, tl.load(a_ptr + offs, mask=m) + tl.load(b_ptr + offs, mask=m), mask=m)


def launch(a, b):
    c = torch.empty_like(a)
    add_kernel[(triton.cdiv(a.numel(), 256),)](a, b, c, a.numel(), BLOCK=256)
    return c



def move(t, d):
    return t.to(d)


class ModelNew(nn.Module):
    def forward(self, a, b):
        a = move(a, a.device)
        half = torch.empty(0, dtype=torch.float16, device=a.device).dtype
        return launch(a, move(b, half))
