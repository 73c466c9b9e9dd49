"""Round 43 (against the kernel watch): the watch sees calls; numpy's ufuncs and operators are no call it is told of
(a ufunc is no builtin function, an operator a slot), and Python's max is a builtin it lets by. The kernel's own body
takes its loaded tile's array (v.handle.data: attribute reads) and writes numpy's softmax into it with max, np.exp,
subtraction, a matrix product with a vector of ones (a == a) for the row's sum, and a division: no function of the
answer's, no method call. Triton's code generator refuses the body on the GPU (handle is an IR value there); on the
CPU this is the open end of the class: a known gap."""
import numpy as np
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
    a = v.handle.data
    e = np.exp(a - max(a))
    a[...] = e / (e @ ((a == a) * 1.0))
    tl.store(out_ptr + r * d + o, v, mask=m)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        b, d = x.shape
        out = torch.empty_like(x)
        softmax_rows[(b,)](x, out, d, BLOCK=triton.next_power_of_2(d))
        return out
