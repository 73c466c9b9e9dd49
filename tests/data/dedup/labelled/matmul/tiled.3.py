import torch
import triton
import triton.language as tl


@triton.jit
def gemm_tile(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
              TILE_M: tl.constexpr, TILE_N: tl.constexpr, TILE_K: tl.constexpr):
    row_block = tl.program_id(0)
    col_block = tl.program_id(1)
    rows = row_block * TILE_M + tl.arange(0, TILE_M)
    cols = col_block * TILE_N + tl.arange(0, TILE_N)
    ks = tl.arange(0, TILE_K)
    a_tile = a_ptr + rows[:, None] * stride_am + ks[None, :] * stride_ak
    b_tile = b_ptr + ks[:, None] * stride_bk + cols[None, :] * stride_bn
    acc = tl.zeros((TILE_M, TILE_N), dtype=tl.float32)
    for k in range(0, K, TILE_K):
        a_mask = (rows[:, None] < M) & (ks[None, :] + k < K)
        b_mask = (ks[:, None] + k < K) & (cols[None, :] < N)
        a = tl.load(a_tile, mask=a_mask, other=0.0)
        b = tl.load(b_tile, mask=b_mask, other=0.0)
        acc += tl.dot(a, b)
        a_tile += TILE_K * stride_ak
        b_tile += TILE_K * stride_bk
    out_mask = (rows[:, None] < M) & (cols[None, :] < N)
    c_tile = c_ptr + rows[:, None] * stride_cm + cols[None, :] * stride_cn
    tl.store(c_tile, acc, mask=out_mask)


def matmul(a, b):
    M, K = a.shape
    K, N = b.shape
    c = torch.empty((M, N), device=a.device, dtype=torch.float32)
    grid = (triton.cdiv(M, 32), triton.cdiv(N, 64))
    gemm_tile[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                    TILE_M=32, TILE_N=64, TILE_K=64)
    return c
