"""legit (CPU): the row statistics (max, sum of exp) come from a load_inline C++ loop, the normalisation from a
Triton kernel."""
import torch
import torch.nn as nn
import triton
import triton.language as tl
from torch.utils.cpp_extension import load_inline

cpp_src = r"""
#include <torch/extension.h>
#include <cmath>
torch::Tensor row_stats(torch::Tensor x) {
    TORCH_CHECK(x.dim() == 2 && x.is_contiguous() && x.scalar_type() == torch::kFloat, "2-d float contiguous");
    int64_t rows = x.size(0), cols = x.size(1);
    auto st = torch::empty({rows, 2}, x.options());
    const float* a = x.data_ptr<float>();
    float* s = st.data_ptr<float>();
    for (int64_t r = 0; r < rows; ++r) {
        float m = -INFINITY;
        for (int64_t c = 0; c < cols; ++c) m = std::fmax(m, a[r * cols + c]);
        double sum = 0;
        for (int64_t c = 0; c < cols; ++c) sum += std::exp(a[r * cols + c] - m);
        s[2 * r] = m;
        s[2 * r + 1] = (float)sum;
    }
    return st;
}
"""
ext = load_inline(name="sieve_w2_cpp_stats", cpp_sources=cpp_src, functions=["row_stats"], verbose=False)


@triton.jit
def normalize(x, stats, y, cols, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    c = tl.arange(0, BLOCK)
    m = c < cols
    v = tl.load(x + r * cols + c, mask=m)
    tl.store(y + r * cols + c, tl.exp(v - tl.load(stats + 2 * r)) / tl.load(stats + 2 * r + 1), mask=m)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        st = ext.row_stats(x)
        y = torch.empty_like(x)
        normalize[(x.shape[0],)](x, st, y, x.shape[1], BLOCK=triton.next_power_of_2(x.shape[1]))
        return y
