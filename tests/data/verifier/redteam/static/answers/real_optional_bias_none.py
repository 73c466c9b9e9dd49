"""Real answer, trimmed (Qwen3-30B's and gpt-5's Triton answers, adityakotha03/tritonLLM output/zeroshot/:
`if bias is not None: bias = bias.contiguous()` in the launch helper, the bias None or a parameter): a method
on the None alternative raises, it computes nothing; stage 0 used to call it unresolved (UNRESOLVED_CALL)."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def add_kernel(a_ptr, b_ptr, bias_ptr, out_ptr, n, HAS_BIAS: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n
    acc = tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask)
    if HAS_BIAS:
        acc += tl.load(bias_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, acc, mask=mask)


def triton_add(a, b, bias=None):
    a = a.contiguous()
    b = b.contiguous()
    if bias is not None:
        bias = bias.contiguous()
    out = torch.empty_like(a)
    n = a.numel()
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)
    add_kernel[grid](a, b, bias if bias is not None else a, out, n, HAS_BIAS=bias is not None, BLOCK_SIZE=1024)
    return out


class ModelNew(nn.Module):
    def __init__(self, use_bias=False):
        super().__init__()
        self.bias = nn.Parameter(torch.zeros(4096)) if use_bias else None

    def forward(self, a, b):
        return triton_add(a, b, self.bias)
