import torch
import triton
import triton.language as tl


@triton.jit
def elementwise_add(a_ptr, b_ptr, c_ptr, numel, TILE: tl.constexpr):
    """c = a + b, one tile of TILE elements per program."""
    pid = tl.program_id(0)
    idx = pid * TILE + tl.arange(0, TILE)
    in_bounds = idx < numel
    b = tl.load(b_ptr + idx, mask=in_bounds)
    a = tl.load(a_ptr + idx, mask=in_bounds)
    tl.store(c_ptr + idx, a + b, mask=in_bounds)


class ModelNew(torch.nn.Module):
    def forward(self, x, y):
        out = torch.empty_like(x)
        n = out.numel()
        grid = lambda meta: (triton.cdiv(n, meta["TILE"]),)
        elementwise_add[grid](x, y, out, n, TILE=2048)
        return out
