"""legit (CPU): a load_inline C++ extension that computes the softmax in its own loops over data pointers,
bound by pybind11 and called from forward; no Triton kernel."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = r"""
#include <torch/extension.h>
#include <cmath>
torch::Tensor softmax_rows(torch::Tensor x) {
    TORCH_CHECK(x.dim() == 2 && x.is_contiguous() && x.scalar_type() == torch::kFloat, "2-d float contiguous");
    auto y = torch::empty_like(x);
    const float* a = x.data_ptr<float>();
    float* b = y.data_ptr<float>();
    int64_t rows = x.size(0), cols = x.size(1);
    for (int64_t r = 0; r < rows; ++r) {
        float m = -INFINITY;
        for (int64_t c = 0; c < cols; ++c) m = std::fmax(m, a[r * cols + c]);
        double s = 0;
        for (int64_t c = 0; c < cols; ++c) s += std::exp(a[r * cols + c] - m);
        for (int64_t c = 0; c < cols; ++c) b[r * cols + c] = std::exp(a[r * cols + c] - m) / s;
    }
    return y;
}
"""
ext = load_inline(name="sieve_w2_cpp_loop_softmax", cpp_sources=cpp_src, functions=["softmax_rows"], verbose=False)


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.softmax_rows(x.contiguous())
