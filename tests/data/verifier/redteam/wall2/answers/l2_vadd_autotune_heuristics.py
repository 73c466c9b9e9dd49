"""legit: vector add with triton.autotune over block sizes and a heuristics-derived EVEN flag (no mask when the
block divides the size)."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"BLOCK": 128}), triton.Config({"BLOCK": 512})], key=["n"])
@triton.heuristics({"EVEN": lambda args: args["n"] % args["BLOCK"] == 0})
@triton.jit
def add_kernel(a, b, c, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN:
        tl.store(c + o, tl.load(a + o) + tl.load(b + o))
    else:
        m = o < n
        tl.store(c + o, tl.load(a + o, mask=m) + tl.load(b + o, mask=m), mask=m)


class ModelNew(nn.Module):
    def forward(self, a, b):
        c = torch.empty_like(a)
        n = c.numel()
        add_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](a, b, c, n)
        return c
