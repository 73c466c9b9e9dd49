import torch
import triton
import triton.language as tl


@triton.jit
def _matmul_swizzled(A, B, C, M, N, K, sam, sak, sbk, sbn, scm, scn,
                     BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GM: tl.constexpr):
    pid = tl.program_id(0)
    grid_n = tl.cdiv(N, BN)
    grid_m = tl.cdiv(M, BM)
    width = GM * grid_n
    group = pid // width
    start_m = group * GM
    size_m = min(grid_m - start_m, GM)
    pm = start_m + (pid % width) % size_m
    pn = (pid % width) // size_m
    rm = (pm * BM + tl.arange(0, BM)) % M
    rn = (pn * BN + tl.arange(0, BN)) % N
    rk = tl.arange(0, BK)
    pa = A + rm[:, None] * sam + rk[None, :] * sak
    pb = B + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(pa, mask=rk[None, :] < K - k * BK, other=0.0)
        b = tl.load(pb, mask=rk[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc)
        pa += BK * sak
        pb += BK * sbk
    cm = pm * BM + tl.arange(0, BM)
    cn = pn * BN + tl.arange(0, BN)
    tl.store(C + scm * cm[:, None] + scn * cn[None, :], acc, mask=(cm[:, None] < M) & (cn[None, :] < N))


def matmul(a, b):
    M, K = a.shape
    _, N = b.shape
    c = torch.empty((M, N), device=a.device, dtype=torch.float32)
    grid = (triton.cdiv(M, 64) * triton.cdiv(N, 64),)
    _matmul_swizzled[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                           c.stride(1), BM=64, BN=64, BK=64, GM=8)
    return c
