from torch.utils.cpp_extension import load_inline

# Two sources in a list; the first uses escape sequences, so string lines != file lines.
header = "#include <cuda_fp16.h>\n#define BLOCK 128\n"
kernels = (
    "__global__ void fill(float* y, int n) {\n"
    "    int i = blockIdx.x * BLOCK + threadIdx.x;\n"
    "    if (i < n) y[i] = 1.0f\n"
    "}\n"
)

mod = load_inline(
    name="fill_ext",
    cpp_sources="",
    cuda_sources=[header, kernels],
    functions=[],
    extra_cuda_cflags=["-O3", "--use_fast_math", "-DEXTRA=1"],
)
