"""legit (run under both policies; round 40, mine): a row softmax whose kernel reaches only the answer's code and
triton's own: tl.softmax (a @jit function of triton.language), tl.reduce with a combine function of the answer's, a
device function of the answer's passed as a constexpr argument (as fused activations are) and a heuristics
wrapper: what the callee walk (callees.cpp) must let by."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def add_combine(a, b):
    return a + b


@triton.jit
def scale_by(v, s):
    return v / s


@triton.heuristics({"BLOCK": lambda args: triton.next_power_of_2(args["d"])})
@triton.jit
def softmax_rows(x_ptr, out_ptr, d, NORMALIZE: tl.constexpr, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    o = tl.arange(0, BLOCK)
    m = o < d
    v = tl.load(x_ptr + r * d + o, mask=m, other=-float("inf"))
    p = tl.softmax(v[None, :], dim=1)
    p = tl.reshape(p, (BLOCK,))
    total = tl.reduce(tl.where(m, p, 0.0), 0, add_combine)
    tl.store(out_ptr + r * d + o, NORMALIZE(p, total), mask=m)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        b, d = x.shape
        out = torch.empty_like(x)
        softmax_rows[(b,)](x, out, d, NORMALIZE=scale_by)
        return out
