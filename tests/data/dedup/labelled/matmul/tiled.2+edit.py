import torch
import triton
import triton.language as tl


@triton.jit
def _mm(A, B, C, M, N, K, sam, sak, sbk, sbn, scm, scn, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """C = A @ B with a 2-D grid of BM x BN output tiles."""
    pn = tl.program_id(1)
    pm = tl.program_id(0)
    rn = pn * BN + tl.arange(0, BN)
    rm = pm * BM + tl.arange(0, BM)
    rk = tl.arange(0, BK)
    pa = A + rm[:, None] * sam + rk[None, :] * sak
    pb = B + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        b = tl.load(pb, mask=(rk[:, None] + k < K) & (rn[None, :] < N), other=0.0)
        a = tl.load(pa, mask=(rm[:, None] < M) & (rk[None, :] + k < K), other=0.0)
        acc += tl.dot(a, b)
        pa += BK * sak
        pb += BK * sbk
    tl.store(C + rm[:, None] * scm + rn[None, :] * scn, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


def matmul(a, b):
    M, K = a.shape
    _, N = b.shape
    c = torch.empty((M, N), device=a.device, dtype=torch.float32)
    _mm[(triton.cdiv(M, 128), triton.cdiv(N, 128))](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0),
                                                    b.stride(1), c.stride(0), c.stride(1), BM=128, BN=128, BK=32)
    return c
