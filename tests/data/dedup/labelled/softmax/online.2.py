import torch
import triton
import triton.language as tl


@triton.jit
def _online_softmax(Y, X, N, BLOCK_SIZE: tl.constexpr):
    """Online softmax (Milakov & Gimelshein): one pass for max and sum, one to write."""
    pid = tl.program_id(0)
    run_max = -float("inf")
    run_sum = 0.0
    for off in range(0, N, BLOCK_SIZE):
        idx = off + tl.arange(0, BLOCK_SIZE)
        v = tl.load(X + pid * N + idx, mask=idx < N, other=-float("inf"))
        new_max = tl.maximum(run_max, tl.max(v, axis=0))
        correction = tl.exp(run_max - new_max)
        run_sum = run_sum * correction + tl.sum(tl.exp(v - new_max), axis=0)
        run_max = new_max
    for off in range(0, N, BLOCK_SIZE):
        idx = off + tl.arange(0, BLOCK_SIZE)
        valid = idx < N
        v = tl.load(X + pid * N + idx, mask=valid, other=-float("inf"))
        p = tl.exp(v - run_max) / run_sum
        tl.store(Y + pid * N + idx, p, mask=valid)


def softmax(x):
    rows, cols = x.shape
    out = torch.empty_like(x)
    _online_softmax[(rows,)](out, x, cols, BLOCK_SIZE=2048)
    return out
