"""legit (run under both policies): a row softmax whose kernel is made by a factory function (a nested @triton.jit,
its source dedented) and calls @triton.jit device functions of the same file (the row's maximum, its exponentials
and their sum, one helper calling another): every device function the launch runs is the answer's, as a check of
the functions a kernel calls must allow."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_max(v):
    return tl.max(v, axis=0)


@triton.jit
def exps_and_sum(v, mask):
    e = tl.where(mask, tl.exp(v - row_max(v)), 0.0)
    return e, tl.sum(e, axis=0)


def make_kernel():
    @triton.jit
    def softmax_rows(x_ptr, out_ptr, d, BLOCK: tl.constexpr):
        r = tl.program_id(0)
        o = tl.arange(0, BLOCK)
        m = o < d
        v = tl.load(x_ptr + r * d + o, mask=m, other=-float("inf"))
        e, s = exps_and_sum(v, m)
        tl.store(out_ptr + r * d + o, e / s, mask=m)
    return softmax_rows


SOFTMAX_ROWS = make_kernel()


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        b, d = x.shape
        out = torch.empty_like(x)
        SOFTMAX_ROWS[(b,)](x, out, d, BLOCK=triton.next_power_of_2(d))
        return out
