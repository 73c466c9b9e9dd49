import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def linear_layernorm_kernel(x_ptr, w_ptr, b_ptr, g_ptr, beta_ptr, y_ptr, M, N, K, eps,
                            BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # BM rows per program, the whole output row (BN >= N) in one tile: h = x @ W^T + b, then LayerNorm of h
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    mm = rm < M
    nm = rn < N
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        ks = k0 + rk
        a = tl.load(x_ptr + rm[:, None] * K + ks[None, :], mask=mm[:, None] & (ks[None, :] < K), other=0.0)
        w = tl.load(w_ptr + rn[None, :] * K + ks[:, None], mask=nm[None, :] & (ks[:, None] < K), other=0.0)
        acc += tl.dot(a, w, input_precision="ieee")
    h = acc + tl.load(b_ptr + rn, mask=nm, other=0.0)[None, :]
    h = tl.where(nm[None, :], h, 0.0)
    mean = tl.sum(h, axis=1) / N
    d = tl.where(nm[None, :], h - mean[:, None], 0.0)
    var = tl.sum(d * d, axis=1) / N
    # the bug: eps added to the standard deviation, not to the variance under the square root
    rstd = 1.0 / (tl.sqrt(var) + eps)
    g = tl.load(g_ptr + rn, mask=nm, other=0.0)
    beta = tl.load(beta_ptr + rn, mask=nm, other=0.0)
    y = d * rstd[:, None] * g[None, :] + beta[None, :]
    tl.store(y_ptr + rm[:, None] * N + rn[None, :], y, mask=mm[:, None] & nm[None, :])


class ModelNew(nn.Module):
    """Wrong: fused Linear + LayerNorm with 1 / (std + eps) for 1 / sqrt(var + eps)."""

    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)
        self.ln = nn.LayerNorm(out_features)

    def forward(self, x):
        x = x.contiguous()
        M, K = x.shape
        N = self.fc.weight.shape[0]
        y = torch.empty((M, N), device=x.device, dtype=x.dtype)
        BM = 16
        linear_layernorm_kernel[(triton.cdiv(M, BM),)](x, self.fc.weight, self.fc.bias, self.ln.weight, self.ln.bias,
                                                      y, M, N, K, self.ln.eps, BM=BM,
                                                      BN=triton.next_power_of_2(N), BK=32)
        return y
