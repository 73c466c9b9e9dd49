"""Answers we write ourselves for real KernelBench problems (the problems are read from a checkout at run
time; nothing of KernelBench is in this file). One template per problem family, each giving several
answers per problem, with what a person would say of each:

  correct   right, with the sample's own kernels doing all the work (Triton, or CUDA via load_inline held
            on self, KernelBench's own pattern)
  bug       a realistic bug (last block never written, a wrong constant, a missing 1/N)
  tf32      a Triton matmul that leaves tl.dot at its TF32 default: within 1e-4 only when TF32 is off
  partial   level 2: torch's convolution/GEMM kept, the epilogue fused in Triton (KernelBench counts it
            correct; Sieve's default policy names the torch op, --policy kernelbench accepts it)
  wrapper   the whole reference computed by torch, its result copied by a Triton kernel (a "baseline
            kernel" reward hack: the output is right, the kernel does nothing of the task)
  zeros     a Triton kernel that writes zeros (passes KernelBench's check where the reference output is
            below the tolerance, issue #165)

    answers_for(level, stem, code) -> [(variant, backend, source, intended)]
"""
import ast
import re

TRITON_HEAD = "import torch\nimport torch.nn as nn\nimport triton\nimport triton.language as tl\n"
CUDA_HEAD = "import torch\nimport torch.nn as nn\nfrom torch.utils.cpp_extension import load_inline\n"

# ---- level 1 elementwise: stem -> (triton expr of x, CUDA expr of x, constructor params {name: default})
ELEMENTWISE = {
    "19_ReLU": ("tl.maximum(x, 0.0)", "fmaxf(x, 0.f)", {}),
    "20_LeakyReLU": ("tl.where(x > 0, x, x * p0)", "(x > 0.f ? x : x * p0)", {"negative_slope": 0.01}),
    "21_Sigmoid": ("1.0 / (1.0 + tl.exp(-x))", "1.f / (1.f + expf(-x))", {}),
    "22_Tanh": ("1.0 - 2.0 / (tl.exp(2.0 * x) + 1.0)", "tanhf(x)", {}),
    "25_Swish": ("x / (1.0 + tl.exp(-x))", "x / (1.f + expf(-x))", {}),
    "26_GELU_": ("0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476))", "0.5f * x * (1.f + erff(x * 0.70710678f))", {}),
    "27_SELU_": ("1.0507009873554805 * tl.where(x > 0, x, 1.6732632423543772 * (tl.exp(x) - 1.0))",
                 "1.0507009873554805f * (x > 0.f ? x : 1.6732632423543772f * (expf(x) - 1.f))", {}),
    "28_HardSigmoid": ("tl.minimum(tl.maximum(x / 6.0 + 0.5, 0.0), 1.0)", "fminf(fmaxf(x / 6.f + 0.5f, 0.f), 1.f)", {}),
    "29_Softplus": ("tl.where(x > 20.0, x, tl.log(1.0 + tl.exp(x)))", "(x > 20.f ? x : log1pf(expf(x)))", {}),
    "30_Softsign": ("x / (1.0 + tl.abs(x))", "x / (1.f + fabsf(x))", {}),
    "31_ELU": ("tl.where(x > 0, x, p0 * (tl.exp(x) - 1.0))", "(x > 0.f ? x : p0 * (expf(x) - 1.f))", {"alpha": 1.0}),
    "32_HardTanh": ("tl.minimum(tl.maximum(x, -1.0), 1.0)", "fminf(fmaxf(x, -1.f), 1.f)", {}),
    "88_MinGPTNewGelu": ("0.5 * x * (2.0 - 2.0 / (tl.exp(2.0 * 0.7978845608028654 * (x + 0.044715 * x * x * x)) + 1.0))",
                         "0.5f * x * (1.f + tanhf(0.7978845608f * (x + 0.044715f * x * x * x)))", {}),
}


def _init(params):
    if not params:
        return "    def __init__(self):\n        super().__init__()\n", "0.0"
    (name, default), = params.items()
    return (f"    def __init__(self, {name}: float = {default}):\n        super().__init__()\n"
            f"        self.{name} = {name}\n", f"float(self.{name})")


def elementwise_triton(expr, params, block=1024, warps=4, bug=None):
    init, p0 = _init(params)
    grid = "triton.cdiv(n, BLOCK) - 1" if bug == "tail" else "triton.cdiv(n, BLOCK)"
    return f"""{TRITON_HEAD}

@triton.jit
def act_kernel(x_ptr, y_ptr, n, p0, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, {expr}, mask=mask)


class ModelNew(nn.Module):
{init}
    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        BLOCK = {block}
        act_kernel[({grid},)](x, y, n, {p0}, BLOCK=BLOCK, num_warps={warps})
        return y
"""


def elementwise_cuda(stem, expr, params):
    init, p0 = _init(params)
    name = "sieve_kb_" + re.sub(r"\W", "_", stem).lower()
    return f'''{CUDA_HEAD}
source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void act_kernel(const float* __restrict__ in, float* __restrict__ out, long long n, float p0) {{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {{
        float x = in[i];
        out[i] = {expr};
    }}
}}

torch::Tensor act_cuda(torch::Tensor x, double p0) {{
    auto in = x.contiguous();
    auto out = torch::empty_like(in);
    long long n = in.numel();
    const int threads = 256;
    const long long blocks = (n + threads - 1) / threads;
    act_kernel<<<(unsigned int)blocks, threads>>>(in.data_ptr<float>(), out.data_ptr<float>(), n, (float)p0);
    return out;
}}
"""
cpp_source = "torch::Tensor act_cuda(torch::Tensor x, double p0);"


class ModelNew(nn.Module):
{init}        self.ext = load_inline(name="{name}", cpp_sources=cpp_source, cuda_sources=source,
                               functions=["act_cuda"], verbose=False)

    def forward(self, x):
        return self.ext.act_cuda(x, {p0})
'''


def wrapper(code):
    """The reference's own forward (torch) with its result copied by a Triton kernel."""
    tree = ast.parse(code)
    model = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Model")
    lines = code.splitlines()
    body = "\n".join(lines[model.lineno - 1:model.end_lineno])
    body = re.sub(r"\bclass Model\b", "class _Reference", body, count=1)
    body = body.replace("super(Model, self)", "super(_Reference, self)")
    imports = "\n".join(lines[n.lineno - 1] for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))
                        and not any(a.name.split(".")[0] in ("triton",) for a in n.names))
    return f"""{TRITON_HEAD}{imports}


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


{body}


class ModelNew(_Reference):
    def forward(self, *args):
        ref = super().forward(*args).contiguous()
        out = torch.empty_like(ref)
        n = ref.numel()
        copy_kernel[(triton.cdiv(n, 1024),)](ref, out, n, BLOCK=1024)
        return out
"""


# ---- softmax / log-softmax over dim 1 of a 2-D input, a row longer than any block: three passes
ROW_OPS = {"23_Softmax": "softmax", "24_LogSoftmax": "log_softmax"}


def row_softmax(kind, bug=None):
    denom = "s" if bug != "last_chunk" else "s_partial"
    out = "tl.exp(x - m) / s" if kind == "softmax" else "x - m - tl.log(s)"
    extra = ""
    if bug == "last_chunk":  # the denominator misses the row's last chunk
        extra = "    s_partial = s\n"
    return f"""{TRITON_HEAD}

@triton.jit
def row_kernel(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = x_ptr + row * N
    m_vec = tl.full([BLOCK], -float("inf"), tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        m_vec = tl.maximum(m_vec, tl.load(base + cols, mask=cols < N, other=-float("inf")))
    m = tl.max(m_vec, axis=0)
    s_vec = tl.zeros([BLOCK], tl.float32)
    for off in range(0, N{' - BLOCK' if bug == 'last_chunk' else ''}, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(base + cols, mask=cols < N, other=-float("inf"))
        s_vec += tl.exp(x - m)
    s = tl.sum(s_vec, axis=0)
{extra}    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(base + cols, mask=cols < N, other=0.0)
        tl.store(y_ptr + row * N + cols, {out.replace('/ s', '/ ' + denom)}, mask=cols < N)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        M, N = x.shape
        row_kernel[(M,)](x, y, N, BLOCK=4096, num_warps=8)
        return y
"""


def zeros_answer(init_params=None):
    return f"""{TRITON_HEAD}

@triton.jit
def zero_kernel(y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.zeros([BLOCK], tl.float32), mask=offs < n)


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        y = torch.empty_like(x)
        n = y.numel()
        zero_kernel[(triton.cdiv(n, 4096),)](y, n, BLOCK=4096)
        return y
"""


# ---- reductions over dim 1 of a 3-D input: stem -> (init, combine, finish, keepdim, torch name)
REDUCTIONS = {
    "47_Sum_reduction_over_a_dimension": ("0.0", "acc + x", "acc", True),
    "48_Mean_reduction_over_a_dimension": ("0.0", "acc + x", "acc / D1", False),
    "49_Max_reduction_over_a_dimension": ("-float('inf')", "tl.maximum(acc, x)", "acc", False),
    "53_Min_reduction_over_a_dimension": ("float('inf')", "tl.minimum(acc, x)", "acc", False),
}


def reduce_dim1(init, combine, finish, keepdim, bug=None):
    stop = "D1 - 1" if bug == "short" else "D1"
    shape = "(B, 1, D2)" if keepdim else "(B, D2)"
    return f"""{TRITON_HEAD}

@triton.jit
def reduce_kernel(x_ptr, y_ptr, D1, D2, BLOCK: tl.constexpr):
    b = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < D2
    acc = tl.full([BLOCK], {init}, tl.float32)
    for i in range(0, {stop}):
        x = tl.load(x_ptr + (b * D1 + i) * D2 + cols, mask=mask, other=0.0)
        acc = {combine}
    tl.store(y_ptr + b * D2 + cols, {finish}, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        x = x.contiguous()
        B, D1, D2 = x.shape
        y = torch.empty({shape}, device=x.device, dtype=x.dtype)
        reduce_kernel[(B, triton.cdiv(D2, 256))](x, y, D1, D2, BLOCK=256)
        return y
"""


# ---- matmuls C = A @ B (stems whose forward is torch.matmul(A, B) on 2-D inputs)
MATMULS = ["1_Square_matrix_multiplication_", "2_Standard_matrix_multiplication_",
           "6_Matmul_with_large_K_dimension_", "7_Matmul_with_small_K_dimension_",
           "8_Matmul_with_irregular_shapes_", "9_Tall_skinny_matrix_multiplication_"]


def matmul(precision="ieee", bug=None):
    dot = "tl.dot(a, b)" if precision == "tf32" else 'tl.dot(a, b, input_precision="ieee")'
    kend = "tl.cdiv(K, BK) - 1" if bug == "skip_last_k" else "tl.cdiv(K, BK)"
    return f"""{TRITON_HEAD}

@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = (pm * BM + tl.arange(0, BM)).to(tl.int64)
    rn = (pn * BN + tl.arange(0, BN)).to(tl.int64)
    rk = tl.arange(0, BK)
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for kb in range(0, {kend}):
        k = kb * BK + rk
        a = tl.load(a_ptr + rm[:, None] * sam + k[None, :] * sak, mask=(rm[:, None] < M) & (k[None, :] < K), other=0.0)
        b = tl.load(b_ptr + k[:, None] * sbk + rn[None, :] * sbn, mask=(k[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += {dot}
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :] * scn, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        M, K = A.shape
        N = B.shape[1]
        C = torch.empty((M, N), device=A.device, dtype=torch.float32)
        grid = (triton.cdiv(M, 64), triton.cdiv(N, 64))
        matmul_kernel[grid](A, B, C, M, N, K, A.stride(0), A.stride(1), B.stride(0), B.stride(1),
                            C.stride(0), C.stride(1), BM=64, BN=64, BK=32, num_warps=4)
        return C
"""


# ---- losses with a 0-d output: stem -> triton expr of (p, t) per element; the mean is taken in the kernel
LOSSES = {
    "94_MSELoss": "(p - t) * (p - t)",
    "96_HuberLoss": "tl.where(tl.abs(p - t) < 1.0, 0.5 * (p - t) * (p - t), tl.abs(p - t) - 0.5)",
    "100_HingeLoss": "tl.maximum(1.0 - p * t, 0.0)",
}


def loss(expr, stem, bug=None):
    scale = "1.0" if bug == "no_mean" else "1.0 / n"
    # hinge: targets has one value per row, broadcast over the row (predictions * targets[:, None]... as the
    # reference's broadcasting does: [B, D] * [B] pairs column j with targets[j])
    tload = "tl.load(t_ptr + (offs % D), mask=mask, other=0.0)" if stem == "100_HingeLoss" else \
        "tl.load(t_ptr + offs, mask=mask, other=0.0)"
    return f"""{TRITON_HEAD}

@triton.jit
def loss_kernel(p_ptr, t_ptr, out_ptr, n, D, scale, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    p = tl.load(p_ptr + offs, mask=mask, other=0.0)
    t = {tload}
    v = tl.where(mask, {expr}, 0.0)
    tl.atomic_add(out_ptr, tl.sum(v, axis=0) * scale)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        p = predictions.contiguous()
        t = targets.contiguous()
        out = torch.zeros((), device=p.device, dtype=torch.float32)
        n = p.numel()
        loss_kernel[(triton.cdiv(n, 4096),)](p, t, out, n, p.shape[-1], {scale}, BLOCK=4096, num_warps=8)
        return out
"""


# ---- level 2: torch's GEMM/convolution kept, the elementwise epilogue fused in Triton.
# stem -> (the core op call on self, names of the constructor's extra scalars kept on self, triton
# epilogue of y (the core op's output) with per-channel `bias` where the reference adds one, bias shape)
EPILOGUES = {
    "12_Gemm_Multiply_LeakyReLU": ("self.gemm(x)", "y = y * MULT\n    y = tl.where(y > 0, y, y * SLOPE)",
                                   {"MULT": "self.multiplier", "SLOPE": "self.leaky_relu.negative_slope"}),
    "63_Gemm_ReLU_Divide": ("self.linear(x)", "y = tl.maximum(y, 0.0) / DIV", {"DIV": "self.divisor"}),
    "86_Matmul_Divide_GELU": ("self.linear(x)", "y = y / DIV\n    y = 0.5 * y * (1.0 + tl.erf(y * 0.7071067811865476))",
                              {"DIV": "self.divisor"}),
    "59_Matmul_Swish_Scaling": ("self.matmul(x)", "y = y / (1.0 + tl.exp(-y)) * SCALE",
                                {"SCALE": "self.scaling_factor"}),
    "9_Matmul_Subtract_Multiply_ReLU": ("self.linear(x)", "y = tl.maximum((y - SUB) * MULT, 0.0)",
                                        {"SUB": "self.subtract_value", "MULT": "self.multiply_value"}),
    "40_Matmul_Scaling_ResidualAdd": ("self.matmul(x)", "y = y * SCALE + y", {"SCALE": "self.scaling_factor"}),
    "53_Gemm_Scaling_Hardtanh_GELU": ("self.gemm(x)",
                                      "y = tl.minimum(tl.maximum(y * SCALE, LO), HI)\n"
                                      "    y = 0.5 * y * (1.0 + tl.erf(y * 0.7071067811865476))",
                                      {"SCALE": "self.scaling_factor", "LO": "self.hardtanh.min_val",
                                       "HI": "self.hardtanh.max_val"}),
    "29_Matmul_Mish_Mish": ("self.linear(x)",
                            "sp = tl.where(y > 20.0, y, tl.log(1.0 + tl.exp(y)))\n"
                            "    y = y * (1.0 - 2.0 / (tl.exp(2.0 * sp) + 1.0))\n"
                            "    sp = tl.where(y > 20.0, y, tl.log(1.0 + tl.exp(y)))\n"
                            "    y = y * (1.0 - 2.0 / (tl.exp(2.0 * sp) + 1.0))", {}),
    "4_Conv2d_Mish_Mish": ("self.conv(x)",
                           "sp = tl.where(y > 20.0, y, tl.log(1.0 + tl.exp(y)))\n"
                           "    y = y * (1.0 - 2.0 / (tl.exp(2.0 * sp) + 1.0))\n"
                           "    sp = tl.where(y > 20.0, y, tl.log(1.0 + tl.exp(y)))\n"
                           "    y = y * (1.0 - 2.0 / (tl.exp(2.0 * sp) + 1.0))", {}),
    "5_ConvTranspose2d_Subtract_Tanh": ("self.conv_transpose(x)", "y = y - BIAS\n    y = 1.0 - 2.0 / (tl.exp(2.0 * y) + 1.0)",
                                        {"@bias": "self.bias"}),
    "1_Conv2D_ReLU_BiasAdd": ("self.conv(x)", "y = tl.maximum(y, 0.0) + BIAS", {"@bias": "self.bias"}),
    "71_Conv2d_Divide_LeakyReLU": ("self.conv(x)", "y = y / DIV\n    y = tl.where(y > 0, y, y * 0.01)",
                                   {"DIV": "self.divisor"}),
    "57_Conv2d_ReLU_HardSwish": ("self.conv(x)",
                                 "y = tl.maximum(y, 0.0)\n    y = y * tl.minimum(tl.maximum((y + 3.0) / 6.0, 0.0), 1.0)", {}),
}


def partial(stem, code, bug=False):
    """ModelNew = the reference's __init__ (same parameters, so its state loads), torch's core op, then one
    Triton kernel for the whole epilogue."""
    core, epi, scalars = EPILOGUES[stem]
    tree = ast.parse(code)
    model = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Model")
    init = next(n for n in model.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    lines = code.splitlines()
    init_src = "\n".join(lines[init.lineno - 1:init.end_lineno]).replace("super(Model, self)", "super(ModelNew, self)")
    has_bias = "@bias" in scalars
    names = [k for k in scalars if not k.startswith("@")]
    if bug:  # a constant gone wrong: the epilogue scales by 1.01
        epi = epi + "\n    y = y * 1.01"
    args = "".join(f", {n}" for n in names)
    call_args = "".join(f", float({scalars[n]})" for n in names)
    bias_arg = ", b_ptr, C, HW" if has_bias else ""
    bias_load = ("    BIAS = tl.load(b_ptr + (offs // HW) % C, mask=mask, other=0.0)\n" if has_bias else "")
    bias_call = ", self.bias.reshape(-1).contiguous(), y.shape[1], y[0, 0].numel()" if has_bias else ""
    return f"""{TRITON_HEAD}

@triton.jit
def epilogue_kernel(y_ptr, o_ptr, n{bias_arg}{args}, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    y = tl.load(y_ptr + offs, mask=mask, other=0.0)
{bias_load}    {epi}
    tl.store(o_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
{init_src}

    def forward(self, x):
        y = {core}.contiguous()
        out = torch.empty_like(y)
        n = y.numel()
        epilogue_kernel[(triton.cdiv(n, 1024),)](y, out, n{bias_call}{call_args}, BLOCK=1024)
        return out
"""


def answers_for(level, stem, code):
    out = []
    if level == 1 and stem in ELEMENTWISE:
        t, c, params = ELEMENTWISE[stem]
        out += [("triton", "triton", elementwise_triton(t, params), "correct"),
                ("triton_b4096", "triton", elementwise_triton(t, params, 4096, 8), "correct"),
                ("triton_tail_bug", "triton", elementwise_triton(t, params, bug="tail"), "bug"),
                ("cuda_ext_on_self", "cuda", elementwise_cuda(stem, c, params), "correct")]
    if level == 1 and stem in ROW_OPS:
        kind = ROW_OPS[stem]
        out += [("triton_3pass", "triton", row_softmax(kind), "correct"),
                ("triton_denominator_bug", "triton", row_softmax(kind, "last_chunk"), "bug")]
        if kind == "softmax":
            out.append(("triton_zeros", "triton", zeros_answer(), "zeros"))
    if level == 1 and stem in REDUCTIONS:
        init, comb, fin, keep = REDUCTIONS[stem]
        out += [("triton_dim1", "triton", reduce_dim1(init, comb, fin, keep), "correct"),
                ("triton_short_bug", "triton", reduce_dim1(init, comb, fin, keep, "short"), "bug")]
    if level == 1 and stem in MATMULS:
        out += [("triton_ieee", "triton", matmul(), "correct"),
                ("triton_tf32_default", "triton", matmul("tf32"), "tf32"),
                ("triton_skip_last_k_bug", "triton", matmul(bug="skip_last_k"), "bug")]
    if level == 1 and stem in LOSSES:
        out += [("triton_atomic_mean", "triton", loss(LOSSES[stem], stem), "correct"),
                ("triton_no_mean_bug", "triton", loss(LOSSES[stem], stem, "no_mean"), "bug")]
    if level == 2 and stem in EPILOGUES:
        out += [("torch_core_triton_epilogue", "triton", partial(stem, code), "partial"),
                ("torch_core_triton_epilogue_bug", "triton", partial(stem, code, bug=True), "bug")]
    if level in (1, 2):
        try:
            out.append(("torch_then_triton_copy", "triton", wrapper(code), "wrapper"))
        except (StopIteration, SyntaxError):
            pass
    return out
