import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_v_kernel(s_ptr, v_ptr, o_ptr, Q, KV, D, BQ: tl.constexpr, BKV: tl.constexpr, BD: tl.constexpr):
    # flash-attention style: online softmax over KV chunks, accumulating p @ V
    rq = tl.program_id(0) * BQ + tl.arange(0, BQ)
    rd = tl.arange(0, BD)
    qm = rq < Q
    dm = rd < D
    m = tl.full((BQ,), float("-inf"), tl.float32)
    l = tl.zeros((BQ,), tl.float32)
    acc = tl.zeros((BQ, BD), tl.float32)
    for k0 in range(0, KV, BKV):
        rk = k0 + tl.arange(0, BKV)
        km = rk < KV
        s = tl.load(s_ptr + rq[:, None] * KV + rk[None, :], mask=qm[:, None] & km[None, :], other=float("-inf"))
        v = tl.load(v_ptr + rk[:, None] * D + rd[None, :], mask=km[:, None] & dm[None, :], other=0.0)
        m_new = tl.maximum(m, tl.max(s, axis=1))
        # the bug: no guard for m_new == -inf (a row whose first KV chunk is fully masked): NaN
        alpha = tl.exp(m - m_new)
        p = tl.exp(s - m_new[:, None])
        l = l * alpha + tl.sum(p, axis=1)
        acc = acc * alpha[:, None] + tl.dot(p, v, input_precision="ieee")
        m = m_new
    tl.store(o_ptr + rq[:, None] * D + rd[None, :], acc / l[:, None], mask=qm[:, None] & dm[None, :])


class ModelNew(nn.Module):
    """Wrong: online softmax(s) @ v without the -inf guard (NaN rows where a whole KV chunk is masked)."""

    def __init__(self):
        super().__init__()

    def forward(self, s, v):
        s = s.contiguous()
        v = v.contiguous()
        Q, KV = s.shape
        D = v.shape[1]
        o = torch.empty((Q, D), device=s.device, dtype=torch.float32)
        BQ = 16
        softmax_v_kernel[(triton.cdiv(Q, BQ),)](s, v, o, Q, KV, D, BQ=BQ, BKV=32,
                                               BD=max(16, triton.next_power_of_2(D)))
        return o
