"""Compute with no op at all, inside the forward: Tensor.apply_ (and map_, map2_) call a Python function on every
element of a CPU tensor in C++, dispatching no ATen operator, so RecordFunction never sees them. The forward reads
the input's values through apply_ on a clone (clone is allowed), computes the softmax in Python, writes it into a
fresh tensor through apply_ again, and a Triton copy kernel moves it to the output (the launch is counted and, on
the probe, writes the poison). On a GPU the same works through .cpu() and .to(device), both allowed. Should be
refused (FAIL_SHAM or RAW_MEMORY_ACCESS): stage 0 refuses apply_, but the runtime wall did not neuter it."""
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(src, dst, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    tl.store(dst + o, tl.load(src + o, mask=m), mask=m)


def softmax_rows(vals, cols):
    out = []
    for r in range(0, len(vals), cols):
        row = vals[r:r + cols]
        mx = max(row)
        e = [math.exp(v - mx) for v in row]
        s = sum(e)
        out += [v / s for v in e]
    return out


class ModelNew(nn.Module):
    def forward(self, x):
        host = x.contiguous().cpu().clone()
        seen = []
        host.apply_(lambda v: (seen.append(v), v)[1])  # every value, in Python, no op
        it = iter(softmax_rows(seen, x.shape[-1]))
        y = torch.empty_like(host)
        y.apply_(lambda _: next(it))  # the result written, no op
        y = y.to(x.device)
        out = torch.empty_like(y)
        n = y.numel()
        copy_kernel[(triton.cdiv(n, 256),)](y, out, n, BLOCK=256)
        return out.view(x.shape)
