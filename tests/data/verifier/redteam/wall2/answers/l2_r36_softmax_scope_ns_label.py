"""legit (strict): a row softmax in one Triton kernel, launched inside a profiler scope of the answer's own whose
label has a namespace, as C++ and torch.library users write them (record_function("sieve::softmax"), a USER_SCOPE
RecordFunction): a label is no operator and runs no compute, and must not be judged as a torch op."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_rows(x_ptr, out_ptr, d, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    o = tl.arange(0, BLOCK)
    m = o < d
    v = tl.load(x_ptr + r * d + o, mask=m, other=-float("inf"))
    v = v - tl.max(v, axis=0)
    e = tl.exp(v)
    e = tl.where(m, e, 0.0)
    tl.store(out_ptr + r * d + o, e / tl.sum(e, axis=0), mask=m)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        b, d = x.shape
        out = torch.empty_like(x)
        with torch.autograd.profiler.record_function("sieve::softmax"):
            softmax_rows[(b,)](x, out, d, BLOCK=triton.next_power_of_2(d))
        return out
