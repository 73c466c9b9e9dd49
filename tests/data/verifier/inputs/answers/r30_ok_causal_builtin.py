import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def causal_softmax_kernel(s_ptr, a_ptr, y_ptr, T, BLOCK: tl.constexpr):
    row = tl.program_id(0)  # one (batch, query) row
    q = row % T
    k = tl.arange(0, BLOCK)
    valid = (k < T) & (k <= q)  # the causal mask, built in
    a = tl.load(a_ptr)
    s = tl.load(s_ptr + row * T + k, mask=k < T, other=0.0) * a
    s = tl.where(valid, s, float("-inf"))
    mx = tl.max(s, axis=0)
    e = tl.where(valid, tl.exp(s - mx), 0.0)
    tl.store(y_ptr + row * T + k, e / tl.sum(e, axis=0), mask=k < T)


class ModelNew(nn.Module):
    """CORRECT: the causal mask built in the kernel (k <= q), not read from the reference's `causal` buffer (which
    it does not have: the load's unexpected key), and the learned scale read at every call."""

    def __init__(self, seq: int):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(1))

    def forward(self, s):
        s = s.contiguous()
        B, T, _ = s.shape
        y = torch.empty_like(s)
        causal_softmax_kernel[(B * T,)](s, self.scale, y, T, BLOCK=triton.next_power_of_2(T))
        return y
