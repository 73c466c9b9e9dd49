"""legit (run under both policies): a row softmax in one Triton kernel, launched inside nested profiler labels of
the answer's that carry core ops' names (record_function("aten::mm") around record_function("aten::linear")),
USER_SCOPE RecordFunctions that are no dispatcher call: under kernelbench they are no core op (observer.cpp is_core)
and no op at all, they open and close inside the window (no core scope left open at a transition), and the kernel
alone computes."""
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
        with torch.autograd.profiler.record_function("aten::mm"):
            with torch.autograd.profiler.record_function("aten::linear"):
                softmax_rows[(b,)](x, out, d, BLOCK=triton.next_power_of_2(d))
        return out
