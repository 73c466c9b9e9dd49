"""legit (CPU): the C++ softmax loop bound as a method of a pybind11 class (py::class_), called from forward;
no Triton kernel. The wall routes only module-level functions (wall.Wall.wrap_extensions looks at
builtin_function_or_method values of the module), so the probe cannot poison this method's result."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = r"""
#include <torch/extension.h>
#include <cmath>
struct Softmax {
    torch::Tensor run(torch::Tensor x) {
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
};
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    py::class_<Softmax>(m, "Softmax").def(py::init<>()).def("run", &Softmax::run);
}
"""
ext = load_inline(name="sieve_w2_cpp_class", cpp_sources=cpp_src, verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.impl = ext.Softmax()

    def forward(self, x):
        return self.impl.run(x.contiguous())
