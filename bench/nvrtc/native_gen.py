#!/usr/bin/env python3
"""Generates the native-verification benchmark: TASKS KernelBench-style fp32 tasks (RMSNorm rows and
elementwise maps over several shapes), each answered twice by the same CUDA kernel:
  - raw:    a .cu of extern "C" kernels with its /* sieve:launch */ manifest (verified natively), and
  - inline: the KernelBench form, a ModelNew that builds the kernel with torch's load_inline (the worker path),
written as Sieve JSONL: OUT/tasks.jsonl, OUT/raw.jsonl, OUT/inline.jsonl.

    python3 native_gen.py OUT [TASKS]
"""
import json
import os
import sys

ELEMENTWISE = [("relu", "torch.relu(x)", "fmaxf(v, 0.f)"), ("scale_shift", "x * 1.5 + 0.25", "v * 1.5f + 0.25f"),
               ("square", "x * x", "v * v"), ("abs", "torch.abs(x)", "fabsf(v)"),
               ("leaky", "torch.nn.functional.leaky_relu(x, 0.1)", "v > 0.f ? v : 0.1f * v"),
               ("silu", "x * torch.sigmoid(x)", "v / (1.f + expf(-v))")]
ELEM_N = [1 << 20, 999_999, 3 * 100003, 1 << 22, 65_537, 2_000_003]
RMS_SHAPES = [(256, 1000), (512, 773), (128, 3000), (1024, 500), (64, 4000), (300, 1500)]

RMS_KERNEL = r"""
extern "C" __global__ void rmsnorm(const float *__restrict__ x, float *__restrict__ y, int cols, float eps)
{
    extern __shared__ float partial[];
    const float *row = x + (long long)blockIdx.x * cols;
    float acc = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        acc += row[c] * row[c];
    for (int o = 16; o > 0; o >>= 1)
        acc += __shfl_xor_sync(0xffffffffu, acc, o);
    if ((threadIdx.x & 31) == 0)
        partial[threadIdx.x >> 5] = acc;
    __syncthreads();
    float total = 0.f;
    for (int w = 0; w < (int)(blockDim.x >> 5); ++w)
        total += partial[w];
    const float scale = rsqrtf(total / cols + eps);
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        y[(long long)blockIdx.x * cols + c] = row[c] * scale;
}
"""

RMS_MANIFEST = {"format": "sieve-raw-cuda/1", "inputs": ["x"],
                "outputs": [{"name": "y", "shape": ["x.shape[0]", "x.shape[1]"], "dtype": "fp32"}],
                "constants": {"rows": "x.shape[0]", "cols": "x.shape[1]", "threads": 256},
                "launches": [{"kernel": "rmsnorm", "grid": ["rows"], "block": ["threads"],
                              "shared_bytes": "threads / 32 * 4",
                              "args": [{"input": "x"}, {"output": "y"}, {"scalar": "cols", "type": "i32"},
                                       {"scalar": 1e-5, "type": "f32"}]}]}


def elem_kernel(name, expr):
    return f"""
extern "C" __global__ void {name}_kernel(const float *__restrict__ x, float *__restrict__ y, long long n)
{{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {{
        const float v = x[i];
        y[i] = {expr};
    }}
}}
"""


def elem_manifest(name):
    return {"format": "sieve-raw-cuda/1", "inputs": ["x"],
            "outputs": [{"name": "y", "shape": ["x.shape[0]"], "dtype": "fp32"}],
            "constants": {"n": "x.numel", "threads": 256},
            "launches": [{"kernel": f"{name}_kernel", "grid": ["ceil_div(n, threads)"], "block": ["threads"],
                          "args": [{"input": "x"}, {"output": "y"}, {"scalar": "n", "type": "i64"}]}]}


def raw_answer(kernel, manifest):
    return "/* sieve:launch\n" + json.dumps(manifest, indent=2) + "\n*/" + kernel


def inline_answer(tag, kernel, host_call, forward_args):
    """The same kernel through load_inline: a host wrapper launches it with the manifest's geometry."""
    src = "#include <torch/extension.h>\n" + kernel.replace('extern "C" ', "") + host_call
    return f'''import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""{src}"""
cpp_src = "torch::Tensor run(torch::Tensor x);"
ext = load_inline(name="sieve_bench_{tag}", cpp_sources=cpp_src, cuda_sources=cuda_src, functions=["run"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self{forward_args}):
        super().__init__()

    def forward(self, x):
        return ext.run(x.contiguous())
'''


def main():
    out = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 12
    os.makedirs(out, exist_ok=True)
    tasks, raw, inline = [], [], []
    for i in range(count):
        if i % 2 == 0:
            rows, cols = RMS_SHAPES[(i // 2) % len(RMS_SHAPES)]
            tid = f"native/rmsnorm_{rows}x{cols}_{i}"
            ref = f"""import torch
import torch.nn as nn

ROWS = {rows}
COLS = {cols}


class Model(nn.Module):
    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + 1e-5)


def get_inputs():
    return [torch.randn(ROWS, COLS)]


def get_init_inputs():
    return []
"""
            kernel = RMS_KERNEL
            host = """
torch::Tensor run(torch::Tensor x) {
    auto y = torch::empty_like(x);
    const int rows = x.size(0), cols = x.size(1), threads = 256;
    rmsnorm<<<rows, threads, threads / 32 * 4>>>(x.data_ptr<float>(), y.data_ptr<float>(), cols, 1e-5f);
    return y;
}
"""
            raw_code = raw_answer(kernel, RMS_MANIFEST)
        else:
            name, texpr, cexpr = ELEMENTWISE[(i // 2) % len(ELEMENTWISE)]
            n = ELEM_N[(i // 2) % len(ELEM_N)]
            tid = f"native/{name}_{n}_{i}"
            ref = f"""import torch
import torch.nn as nn

N = {n}


class Model(nn.Module):
    def forward(self, x):
        return {texpr}


def get_inputs():
    return [torch.randn(N)]


def get_init_inputs():
    return []
"""
            kernel = elem_kernel(name, cexpr)
            host = f"""
torch::Tensor run(torch::Tensor x) {{
    auto y = torch::empty_like(x);
    const long long n = x.numel();
    const int threads = 256;
    {name}_kernel<<<(n + threads - 1) / threads, threads>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}}
"""
            raw_code = raw_answer(kernel, elem_manifest(name))
        tasks.append({"task_id": tid, "reference_code": ref, "dtype": "fp32", "atol": 1e-4, "rtol": 1e-4, "level": 1,
                      "category": "rmsnorm" if i % 2 == 0 else "elementwise", "backend": "cuda", "target": "H200",
                      "source": "bench/nvrtc/native_gen.py", "license": "MIT"})
        common = {"task_id": tid, "model": "bench", "temperature": 0.0, "attempt": 0, "backend": "cuda",
                  "reasoning": ""}
        raw.append({**common, "sample_id": f"{tid}/raw", "code": raw_code})
        inline.append({**common, "sample_id": f"{tid}/inline",
                       "code": inline_answer(f"{i}", kernel, host, "")})
    for name, rows in (("tasks", tasks), ("raw", raw), ("inline", inline)):
        with open(os.path.join(out, f"{name}.jsonl"), "w") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
    print(f"{len(tasks)} tasks, {len(raw)} raw and {len(inline)} load_inline answers in {out}")


if __name__ == "__main__":
    main()
