import torch
import triton
import triton.language as tl


@triton.jit
def gelu_fwd_kernel(in_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(in_ptr + offsets, mask=mask).to(tl.float32)
    # GELU(x) = x * 0.5 * (1 + erf(x / sqrt(2)))
    out = x * 0.5 * (1.0 + tl.erf(x * 0.7071067811865476))
    tl.store(out_ptr + offsets, out, mask=mask)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        n_elements = x.numel()
        gelu_fwd_kernel[(triton.cdiv(n_elements, 1024),)](x, y, n_elements, BLOCK_SIZE=1024)
        return y
