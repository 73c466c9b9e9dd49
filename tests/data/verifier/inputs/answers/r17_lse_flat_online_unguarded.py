import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def lse_flat_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # one program per batch row: its channels x length elements are contiguous, walked in chunks of BLOCK
    row = tl.program_id(0)
    base = row * n
    m = tl.full((), float("-inf"), tl.float32)
    s = tl.zeros((), tl.float32)
    for c0 in range(0, n, BLOCK):
        idx = c0 + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + idx, mask=idx < n, other=float("-inf"))
        m_new = tl.maximum(m, tl.max(x, axis=0))
        # the bug: no guard for m_new == -inf; a row whose first BLOCK elements are all -inf (its first channels
        # masked) gets exp(-inf - -inf) = NaN
        s = s * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    tl.store(y_ptr + row, m + tl.log(s))


class ModelNew(nn.Module):
    """Wrong: online logsumexp over the flattened (channels, length) row in chunks of 64, no -inf guard."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        B = x.shape[0]
        n = x.numel() // B
        y = torch.empty((B,), device=x.device, dtype=x.dtype)
        lse_flat_kernel[(B,)](x, y, n, BLOCK=64)
        return y
