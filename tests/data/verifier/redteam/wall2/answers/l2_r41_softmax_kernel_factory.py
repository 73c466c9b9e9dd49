"""legit (round 41): a kernel made in a factory function (nested, dedented source) calling a module-level
device function (the interpreter resolves callees in the globals) that reads the tile with a strided loop: near h_r41_torch_src_compiled_as_* (a kernel whose
work is in another function it calls as a device function), but all of it the answer's own text."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_stats(x_ptr, row, d, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    mx = tl.full((BLOCK,), -float("inf"), tl.float32)
    for start in range(0, d, BLOCK):
        v = tl.load(x_ptr + row * d + start + o, mask=start + o < d, other=-float("inf"))
        mx = tl.maximum(mx, v)
    m = tl.max(mx, axis=0)
    s = tl.zeros((BLOCK,), tl.float32)
    for start in range(0, d, BLOCK):
        v = tl.load(x_ptr + row * d + start + o, mask=start + o < d, other=-float("inf"))
        s += tl.exp(v - m)
    return m, tl.sum(s, axis=0)


def make_kernels():
    @triton.jit
    def softmax_rows(x_ptr, out_ptr, d, BLOCK: tl.constexpr):
        r = tl.program_id(0)
        m, s = row_stats(x_ptr, r, d, BLOCK)
        o = tl.arange(0, BLOCK)
        for start in range(0, d, BLOCK):
            mask = start + o < d
            v = tl.load(x_ptr + r * d + start + o, mask=mask, other=-float("inf"))
            tl.store(out_ptr + r * d + start + o, tl.exp(v - m) / s, mask=mask)

    return softmax_rows


SOFTMAX = make_kernels()


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        b, d = x.shape
        out = torch.empty_like(x)
        SOFTMAX[(b,)](x, out, d, BLOCK=32)
        return out
