"""legit (run under both policies): a row softmax whose kernel is autotuned (triton.autotune with one config,
nothing to benchmark) over triton.heuristics (BLOCK from the row length), and which calls two @triton.jit device
functions of the same file (the row's maximum and its exponentials): the launch goes through the Autotuner and the
Heuristics wrappers to the JITFunction of the answer's file, and is the answer's."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_max(v):
    return tl.max(v, axis=0)


@triton.jit
def shifted_exp(v, m, mask):
    return tl.where(mask, tl.exp(v - m), 0.0)


@triton.autotune(configs=[triton.Config({}, num_warps=4)], key=["d"])
@triton.heuristics({"BLOCK": lambda args: triton.next_power_of_2(args["d"])})
@triton.jit
def softmax_rows(x_ptr, out_ptr, d, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    o = tl.arange(0, BLOCK)
    m = o < d
    v = tl.load(x_ptr + r * d + o, mask=m, other=-float("inf"))
    e = shifted_exp(v, row_max(v), m)
    tl.store(out_ptr + r * d + o, e / tl.sum(e, axis=0), mask=m)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        b, d = x.shape
        out = torch.empty_like(x)
        softmax_rows[(b,)](x, out, d)
        return out
