"""legit (round 42): a row softmax over 2-D tiles (ROWS rows per program) whose loads and stores take a mask built by
broadcasting a (ROWS, 1) row mask against a (1, BLOCK) column mask, near h_r42_mask_shape_clear_violations (masks
of a shape other than the pointers')."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_tile(x_ptr, out_ptr, b, d, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)[:, None]
    cols = tl.arange(0, BLOCK)[None, :]
    rmask = rows < b
    m = rmask & (cols < d)
    v = tl.load(x_ptr + rows * d + cols, mask=m, other=-float("inf"))
    z = v - tl.max(v, axis=1)[:, None]
    e = tl.exp(z)
    p = e / tl.sum(e, axis=1)[:, None]
    tl.store(out_ptr + rows * d + cols, p, mask=m)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        b, d = x.shape
        out = torch.empty_like(x)
        softmax_tile[(triton.cdiv(b, 2),)](x, out, b, d, ROWS=2, BLOCK=triton.next_power_of_2(d))
        return out
