"""Stage 0 (sieve_worker.static.static) on its own: one behaviour per test, no torch needed.

    python -m unittest discover -s tests/worker -t tests/worker      (from the repository root)
"""
import json
import os
import sys
import time
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "gpu", "worker"))

from sieve_worker.static import static  # noqa: E402

HEAD = '''import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


def launch(x):
    y = torch.empty_like(x)
    k[(triton.cdiv(x.numel(), 128),)](x, y, x.numel(), BLOCK=128)
    return y
'''


def answer(forward, init="", pre="", post=""):
    init = init or "        pass\n"
    return (HEAD + pre + "\n\nclass ModelNew(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
            + init + "\n    def forward(self, x):\n" + forward + post)


def codes(code, backend="triton", policy="strict"):
    return {f.code for f in static.check(code, backend, policy) if f.fatal}


class Base(unittest.TestCase):
    def rejects(self, code, reason, **kw):
        got = codes(code, **kw)
        self.assertIn(reason, got, f"expected {reason}, got {sorted(got)}")

    def accepts(self, code, **kw):
        bad = [f for f in static.check(code, **kw) if f.fatal]
        self.assertEqual(bad, [], "\n".join(f"{f.line}: {f.code}: {f.message}" for f in bad))


class Accepts(Base):
    def test_plain_launch(self):
        self.accepts(answer("        return launch(x)\n"))

    def test_shape_glue(self):
        self.accepts(answer("        x = x.contiguous().view(-1)\n        n = x.shape[0] * 2 // 2\n"
                            "        y = launch(x.reshape(n))\n        return y.view(x.shape).to(x.dtype)\n"))

    def test_grid_lambda_meta(self):
        self.accepts(answer("        y = torch.empty_like(x)\n        n = x.numel()\n"
                            "        k[lambda meta: (triton.cdiv(n, meta['BLOCK']),)](x, y, n, BLOCK=64)\n"
                            "        return y\n"))

    def test_dtype_dict(self):
        self.accepts(answer("        y = torch.empty_like(x)\n        KS[x.dtype][(1,)](x, y, x.numel(), BLOCK=128)\n"
                            "        return y\n", pre="\nKS = {torch.float32: k, torch.float16: k}\n"))

    def test_autograd_function(self):
        self.accepts(answer("        return Fn.apply(x)\n", pre='''

class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return launch(x)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * x.exp()
'''))

    def test_param_holder(self):
        self.accepts(answer("        w = self.lin.weight\n        n = self.lin.in_features\n"
                            "        return launch(w.view(-1)[:n])\n", init="        self.lin = nn.Linear(4, 4)\n"))

    def test_setup_may_compute(self):
        self.accepts(answer("        return launch(x)\n", init="        self.w = nn.Parameter(torch.randn(4) / 2)\n"
                            "        nn.init.zeros_(self.w)\n        self.register_buffer('m', torch.tril(torch.ones(4, 4)))\n"))

    def test_cpu_fallback_is_a_note(self):
        fs = static.check(answer("        if not x.is_cuda:\n            return torch.relu(x)\n        return launch(x)\n"))
        self.assertEqual([f.code for f in fs], ["CPU_FALLBACK_NOTE"])
        self.assertFalse(fs[0].fatal)

    def test_main_block_is_not_run(self):
        self.accepts(answer("        return launch(x)\n", post="\n\nif __name__ == '__main__':\n"
                                                                 "    print(torch.softmax(torch.randn(3), 0))\n"))

    def test_load_inline_self_ext(self):
        self.accepts(CUDA.replace("{flags}", ", extra_cuda_cflags=['-O3', '--use_fast_math', '-arch=sm_90']"),
                     backend="cuda")

    def test_kernelbench_core_op_is_a_note_with_the_op(self):
        fs = static.check(answer("        h = F.conv2d(x, self.w)\n        return launch(h)\n",
                                 init="        self.w = nn.Parameter(torch.randn(4, 4, 3, 3))\n"), policy="kernelbench")
        self.assertEqual([(f.code, f.op, f.fatal) for f in fs],
                         [("TORCH_CORE_OP_ALLOWED", "torch.nn.functional.conv2d", False)])


CUDA = '''import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

SRC = """
#include <torch/extension.h>
__global__ void add_kernel(const float* a, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i];
}
torch::Tensor copy_cuda(torch::Tensor a) {
    auto c = torch::empty_like(a);
    add_kernel<<<(a.numel() + 255) / 256, 256>>>(a.data_ptr<float>(), c.data_ptr<float>(), a.numel());
    return c;
}
"""


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.ext = load_inline(name="copy_ext", cpp_sources="torch::Tensor copy_cuda(torch::Tensor a);",
                               cuda_sources=SRC, functions=["copy_cuda"]{flags})

    def forward(self, x):
        return self.ext.copy_cuda(x)
'''


class TorchCompute(Base):
    def test_direct_call(self):
        self.rejects(answer("        launch(x)\n        return torch.relu(x)\n"), "TORCH_OP_IN_FORWARD")

    def test_bound_in_init(self):
        self.rejects(answer("        launch(x)\n        return self.act(x)\n", init="        self.act = F.relu\n"),
                     "TORCH_OP_IN_FORWARD")

    def test_through_dict_and_list(self):
        self.rejects(answer("        return OPS['r'](x)\n", pre="\nOPS = {'r': torch.relu}\n"), "TORCH_OP_IN_FORWARD")
        self.rejects(answer("        return self.f[0](x)\n", init="        self.f = [torch.relu]\n"),
                     "TORCH_OP_IN_FORWARD")

    def test_through_partial_and_lambda(self):
        self.rejects(answer("        return P(x)\n", pre="\nimport functools\nP = functools.partial(torch.relu)\n"),
                     "TORCH_OP_IN_FORWARD")
        self.rejects(answer("        return P(x)\n", pre="\nP = lambda t: t.relu()\n"), "TORCH_OP_IN_FORWARD")

    def test_tensor_arithmetic_and_methods(self):
        self.rejects(answer("        return launch(x) * 2\n"), "TORCH_OP_IN_FORWARD")
        self.rejects(answer("        return launch(x).sum()\n"), "TORCH_OP_IN_FORWARD")
        self.rejects(answer("        if x:\n            pass\n        return launch(x)\n"), "TORCH_OP_IN_FORWARD")

    def test_host_reads(self):
        self.rejects(answer("        v = x.tolist()\n        return launch(x)\n"), "TORCH_OP_IN_FORWARD")
        self.rejects(answer("        s = f'{x}'\n        return launch(x)\n"), "TORCH_OP_IN_FORWARD")

    def test_builtins_over_tensors(self):
        self.rejects(answer("        launch(x)\n        return sum([x, x])\n"), "TORCH_OP_IN_FORWARD")

    def test_helper_module_through_container(self):
        self.rejects(answer("        return self.s[0](x)\n", init="        self.s = nn.ModuleList([H()])\n",
                            pre="\n\nclass H(nn.Module):\n    def forward(self, x):\n        return x.exp()\n"),
                     "TORCH_OP_IN_FORWARD")

    def test_torch_layer_called(self):
        self.rejects(answer("        launch(x)\n        return self.seq(x)\n",
                            init="        self.seq = nn.Sequential(nn.ReLU())\n"), "TORCH_OP_IN_FORWARD")

    def test_call_override_and_property(self):
        self.rejects(answer("        return launch(x)\n", post="\n    def __call__(self, x):\n        return x.relu()\n"),
                     "TORCH_OP_IN_FORWARD")

    def test_kernel_body_torch(self):
        self.rejects(HEAD.replace("offs = tl.program_id(0)", "torch.relu(x_ptr)\n    offs = tl.program_id(0)")
                     + "\n\nclass ModelNew(nn.Module):\n    def forward(self, x):\n        return launch(x)\n",
                     "TORCH_OP_IN_FORWARD")

    def test_heuristics_hook(self):
        code = answer("        return launch(x)\n").replace(
            "@triton.jit", "@triton.heuristics({'BLOCK': lambda a: int(a['x_ptr'].sum())})\n@triton.jit")
        self.rejects(code, "TORCH_OP_IN_FORWARD")

    def test_ghost_branch(self):
        self.rejects(answer("        if x.numel() > 4:\n            return torch.relu(x)\n        return launch(x)\n"),
                     "GHOST_BRANCH")

    def test_fake_cpu_fallback(self):
        self.rejects(answer("        if not x.cpu().is_cuda:\n            return torch.relu(x)\n        return launch(x)\n"),
                     "TORCH_OP_IN_FORWARD")

    def test_strict_core_op_names_the_op(self):
        fs = static.check(answer("        return launch(x @ x)\n"))
        self.assertIn(("TORCH_CORE_OP", "torch.matmul"), {(f.code, f.op) for f in fs})

    def test_kernelbench_still_rejects_non_core(self):
        self.rejects(answer("        return launch(torch.relu(x))\n"), "TORCH_OP_IN_FORWARD", policy="kernelbench")

    def test_kernelbench_core_op_needs_a_kernel(self):
        self.rejects(answer("        return F.linear(x, x)\n"), "TORCH_CORE_OP", policy="kernelbench")


class Language(Base):
    def test_unresolved_call(self):
        self.rejects(answer("        return mystery(launch(x))\n"), "UNRESOLVED_CALL")
        self.rejects(answer("        self.apply(lambda m: m)\n        return launch(x)\n"), "UNRESOLVED_CALL")

    def test_imports(self):
        for mod in ("os", "sys", "subprocess", "socket", "ctypes", "importlib", "pickle", "gc", "inspect", "builtins",
                    "numpy", "torch.multiprocessing.spawn", "torch.overrides"):
            with self.subTest(mod=mod):
                got = codes(answer("        return launch(x)\n", pre=f"\nimport {mod}\n"))
                self.assertTrue(got & {"FORBIDDEN_IMPORT", "THREADS"}, got)
        self.rejects(answer("        return launch(x)\n", pre="\nimport threading\n"), "THREADS")

    def test_modules_through_modules(self):
        for path in ("typing.sys.modules", "torch.os.system", "torch.ctypes.CDLL", "triton.runtime.driver",
                     "torch._C._cuda_getDevice"):
            with self.subTest(path=path):
                pre = "\nimport typing\n" if path.startswith("typing") else ""
                self.rejects(answer(f"        {path}\n        return launch(x)\n", pre=pre), "FORBIDDEN_ATTR")

    def test_introspection(self):
        for expr in ("torch.__dict__", "vars(torch)", "globals()", "().__class__.__bases__", "launch.__globals__",
                     "getattr(x, '__class__')", "(i for i in []).gi_frame"):
            with self.subTest(expr=expr):
                self.rejects(answer(f"        v = {expr}\n        return launch(x)\n"), "INTROSPECTION")

    def test_dynamic_code(self):
        for expr in ("eval('1')", "exec('1')", "compile('1', 'f', 'eval')", "__import__('os')",
                     "getattr(torch, 're' + 'lu')", "operator.attrgetter('relu')"):
            with self.subTest(expr=expr):
                self.rejects(answer(f"        v = {expr}\n        return launch(x)\n", pre="\nimport operator\n"),
                             "DYNAMIC_CODE")

    def test_aliased_dangerous_builtin(self):
        self.rejects(answer("        e = exec\n        e('1')\n        return launch(x)\n"), "DYNAMIC_CODE")

    def test_patches(self):
        self.rejects(answer("        return launch(x)\n", pre="\ntorch.allclose = lambda *a: True\n"), "PATCHES_TORCH")
        self.rejects(answer("        return launch(x)\n", pre="\nF.relu = None\n"), "PATCHES_TORCH")
        self.rejects(answer("        return launch(x)\n", pre="\nsetattr(torch, 'equal', None)\n"), "PATCHES_TORCH")
        self.rejects(answer("        return launch(x)\n", pre="\nLIBS = [torch]\nLIBS[0].equal = None\n"),
                     "PATCHES_TORCH")
        self.rejects(answer("        return launch(x)\n", pre="\ntorch.cuda.Event.elapsed_time = None\n"),
                     "PATCHES_TIMER")
        self.rejects(answer("        return launch(x)\n", pre="\n__builtins__['print'] = None\n"), "PATCHES_HARNESS")

    def test_module_api_override_and_magic(self):
        self.rejects(answer("        return launch(x)\n", post="\n    def load_state_dict(self, sd, strict=True):\n"
                                                             "        pass\n"), "PATCHES_HARNESS")
        self.rejects(answer("        return launch(x)\n", post="\n    def __del__(self):\n        pass\n"),
                     "MAGIC_METHOD")

    def test_hooks_and_dispatch(self):
        self.rejects(answer("        return launch(x)\n", init="        self.register_forward_hook(lambda *a: None)\n"),
                     "HOOKS")
        self.rejects(answer("        return launch(x)\n", pre="\n\nclass B:\n    def __torch_function__(self, *a):\n"
                                                            "        pass\n"), "DISPATCH_MODE")

    def test_bases(self):
        self.rejects(answer("        return launch(x)\n", pre="\n\nclass T(torch.Tensor):\n    pass\n"), "FORBIDDEN_BASE")

    def test_try_except_and_suppress(self):
        self.rejects(answer("        try:\n            return launch(x)\n        except Exception:\n"
                            "            return x\n"), "TRY_EXCEPT_FALLBACK")

    def test_threads_streams_graphs(self):
        self.rejects(answer("        s = torch.cuda.Stream()\n        return launch(x)\n"), "STREAMS")
        self.rejects(answer("        g = torch.cuda.CUDAGraph()\n        return launch(x)\n"), "CUDA_GRAPHS")

    def test_caching(self):
        self.rejects(answer("        self.out = launch(x)\n        return self.out\n"), "CACHING")
        self.rejects(answer("        C.append(launch(x))\n        return C[0]\n", pre="\nC = []\n"), "CACHING")
        self.rejects(answer("        return launch(x)\n", pre="\nimport functools\n\n\n@functools.lru_cache\n"
                                                            "def f(n):\n    return n\n"), "CACHING")

    def test_forbidden_calls(self):
        self.rejects(answer("        return launch(x)\n", init="        open('/etc/hostname')\n"), "FORBIDDEN_CALL")
        self.rejects(answer("        return launch(x)\n", init="        torch.manual_seed(0)\n"), "FORBIDDEN_CALL")
        self.rejects(answer("        return launch(x)\n", init="        t = torch.from_file('/etc/hostname')\n"),
                     "FORBIDDEN_CALL")

    def test_no_kernel_no_launch_no_model(self):
        self.rejects("import torch\nclass ModelNew(torch.nn.Module):\n    def forward(self, x):\n        return x\n",
                     "NO_KERNEL")
        self.rejects(answer("        return torch.empty_like(x)\n"), "NO_LAUNCH")
        self.rejects(answer("        k(x, x, 1, 1)\n        return x\n"), "NO_LAUNCH")
        self.rejects(HEAD, "NO_MODELNEW")
        self.rejects("def f(:\n", "PARSE_ERROR")

    def test_kernel_language(self):
        self.rejects(HEAD.replace("offs = tl.program_id(0)", "FN = 1\n    FN(1)\n    offs = tl.program_id(0)")
                     + "\n\nclass ModelNew(nn.Module):\n    def forward(self, x):\n        return launch(x)\n",
                     "UNRESOLVED_CALL")

    def test_unknown_policy(self):
        with self.assertRaises(ValueError):
            static.check(answer("        return launch(x)\n"), policy="lenient")


class Indirection(Base):
    """Ways to reach torch that stage 0 once missed (tests/data/verifier/redteam/static has whole answers)."""
    def test_dict_keys_are_what_iteration_yields(self):
        self.rejects(answer("        launch(x)\n        (k,) = {x: 0}\n        return k * 2\n"), "TORCH_OP_IN_FORWARD")
        self.rejects(answer("        launch(x)\n        return sum({x: 0, launch(x): 1})\n"), "TORCH_OP_IN_FORWARD")
        self.accepts(answer("        for name, fn in {'a': launch}.items():\n            y = fn(x)\n        return y\n"))

    def test_instance_forward_shadows_the_class(self):
        self.rejects(answer("        return launch(x)\n", init="        self.forward = torch.relu\n"),
                     "TORCH_OP_IN_FORWARD")
        self.accepts(answer("        return launch(x)\n", init="        self.forward = launch\n"))

    def test_class_body_in_forward_is_forward(self):
        self.rejects(answer("        launch(x)\n        class T:\n            y = torch.relu(x)\n        return T.y\n"),
                     "TORCH_OP_IN_FORWARD")

    def test_memo_sees_mutation(self):
        self.rejects(answer("        fns = [launch]\n        run(fns, x)\n        fns[0] = torch.relu\n"
                            "        return run(fns, x)\n", pre="\n\ndef run(fns, x):\n    return fns[0](x)\n"),
                     "TORCH_OP_IN_FORWARD")

    def test_loops_reach_a_fixpoint(self):
        self.rejects(answer("        f0 = f1 = f2 = launch\n        for i in range(3):\n            y = f0(x)\n"
                            "            f0 = f1\n            f1 = f2\n            f2 = torch.relu\n        return y\n"),
                     "TORCH_OP_IN_FORWARD")
        self.accepts(answer("        ys = []\n        for i in range(4):\n            tmp = [x, i]\n"
                            "            ys.append(launch(tmp[0]))\n        return ys[-1]\n"))

    def test_star_and_double_star_reach_defaults(self):
        pre = "\n\ndef ident(t):\n    return t\n\n\ndef apply(p, q=ident):\n    return q(p)\n"
        self.rejects(answer("        launch(x)\n        xs = [x, torch.relu]\n        return apply(*xs)\n", pre=pre),
                     "TORCH_OP_IN_FORWARD")
        self.rejects(answer("        launch(x)\n        return apply(x, **{'q': torch.relu})\n", pre=pre),
                     "TORCH_OP_IN_FORWARD")

    def test_library_callbacks_are_followed(self):
        for call in ("max([0], key=lambda i: torch.relu(x))", "sorted([0], key=lambda i: torch.relu(x))",
                     "collections.defaultdict(lambda: torch.relu(x))['k']"):
            with self.subTest(call=call):
                self.rejects(answer(f"        launch(x)\n        return {call}\n", pre="\nimport collections\n"),
                             "TORCH_OP_IN_FORWARD")

    def test_modelnew_bound_to_a_layer(self):
        self.rejects(answer("        return launch(x)\n", post="\n\nif torch.cuda.is_available():\n"
                                                          "    ModelNew = nn.ReLU\n"), "TORCH_OP_IN_FORWARD")


class Extensions(Base):
    def test_flags(self):
        for flags in (", extra_cflags=['-fplugin=/tmp/x.so']", ", extra_ldflags=['-Wl,-rpath,/tmp']",
                      ", extra_cuda_cflags=['-O3 -x cu']", ", extra_cflags=['@/tmp/f']", ", build_directory='/tmp'",
                      ", extra_include_paths=['/etc']", ", extra_cflags=['-I/etc']", ", extra_cflags=['-B/tmp']",
                      ", extra_cflags=['-include/etc/passwd']", ", extra_cflags=['-D$(id)']", ", **OPTS"):
            with self.subTest(flags=flags):
                self.rejects(CUDA.replace("{flags}", flags), "EXTENSION_FLAGS", backend="cuda")

    def test_names_are_identifiers(self):
        self.rejects(CUDA.replace("{flags}", "").replace('name="copy_ext"', 'name="../../tmp/x"'), "EXTENSION_FLAGS",
                     backend="cuda")
        self.rejects(CUDA.replace("{flags}", "").replace('functions=["copy_cuda"]', 'functions=[\'copy_cuda", 0); //\']'),
                     "EXTENSION_FLAGS", backend="cuda")

    def test_sources(self):
        self.rejects(CUDA.replace("{flags}", "").replace("__global__ void", "void").replace(
            "    add_kernel<<<", "    //"), "NO_KERNEL", backend="cuda")
        self.rejects(CUDA.replace("{flags}", "").replace("    auto c = torch::empty_like(a);",
                                                          "    auto c = torch::relu(a);"),
                     "TORCH_OP_IN_FORWARD", backend="cuda")
        self.rejects(CUDA.replace("{flags}", "").replace("    auto c", "    auto f = &system;\n    auto c"),
                     "FORBIDDEN_CALL", backend="cuda")
        self.rejects(CUDA.replace("{flags}", "").replace("#include <torch/extension.h>", "#include <fstream>"),
                     "INCLUDE_FORBIDDEN", backend="cuda")
        self.rejects(CUDA.replace("{flags}", "").replace("cuda_sources=SRC", "cuda_sources=SRC.lower()"),
                     "EXTENSION_SOURCE", backend="cuda")

    def test_renamed_torch_names(self):
        base = CUDA.replace("{flags}", "")
        for head, call in (("using namespace at;", "add(a, b)"), ("namespace T = at;", "T::add(a, b)"),
                           ("using at::add;", "add(a, b)"), ("#define AT at", "AT::add(a, b)"),
                           ("#define CALL(o, m, x) o.m(x)", "CALL(a, add, b)")):
            with self.subTest(head=head):
                code = base.replace("#include <torch/extension.h>", "#include <torch/extension.h>\n" + head) \
                    .replace("    auto c = torch::empty_like(a);", f"    auto c = torch::empty_like(a);\n    c = {call};")
                self.rejects(code, "EXTENSION_SOURCE", backend="cuda")

    def test_tensor_methods_default_deny(self):
        base = CUDA.replace("{flags}", "")
        for call in ("a.logaddexp(b)", "a.operator+(b)"):
            with self.subTest(call=call):
                self.rejects(base.replace("    auto c = torch::empty_like(a);",
                                          f"    auto c = torch::empty_like(a);\n    c = {call};"),
                             "TORCH_OP_IN_FORWARD", backend="cuda")
        self.accepts(base.replace("    auto c = torch::empty_like(a);",
                                  "    auto c = torch::empty_like(a);\n    auto n2 = a.numel() + b.size(0);"),
                     backend="cuda")

    def test_load_from_files(self):
        self.rejects(CUDA.replace("{flags}", "").replace("load_inline(name", "torch.utils.cpp_extension.load(name"),
                     "FORBIDDEN_CALL", backend="cuda")


class RealAnswers(Base):
    """Idioms of real model-written KernelBench answers (tests/data/verifier/redteam/static/answers/real_*.py),
    each with the nearby construct that still computes in torch."""

    def test_cuda_of_gpu_tensor(self):
        self.accepts(answer("        return launch(x.cuda())\n"))
        self.accepts(answer("        return launch(x.contiguous().cuda(non_blocking=True))\n"))
        self.rejects(answer("        return launch(x.cuda(1))\n"), "TORCH_OP_IN_FORWARD")
        self.rejects(answer("        return launch(x.cuda(memory_format=torch.channels_last))\n"),
                     "TORCH_OP_IN_FORWARD")
        self.rejects(answer("        return launch(x.t().cuda().contiguous())\n"), "TORCH_OP_IN_FORWARD")

    def test_move_to_own_device(self):
        self.accepts(answer("        x = self.lin(x)\n        x = x.to(x.device)\n        return launch(x)\n",
                            init="        self.lin = nn.Linear(4, 4)\n"), policy="kernelbench")
        # a cast stage 0 cannot prove a no-op: strict refuses it, kernelbench notes it (HOST_CAST_ALLOWED)
        self.rejects(answer("        x = self.lin(x)\n        x = x.to(x.dtype)\n        return launch(x)\n",
                            init="        self.lin = nn.Linear(4, 4)\n"), "TORCH_OP_IN_FORWARD")
        self.rejects(answer("        return launch(x.to(x.device, torch.float16))\n"), "TORCH_OP_IN_FORWARD")

    def test_method_on_optional_none(self):
        init = "        self.b = nn.Parameter(torch.zeros(4)) if 1 > 0 else None\n"
        self.accepts(answer("        b = self.b\n        if b is not None:\n            b = b.contiguous()\n"
                            "        return launch(x)\n", init=init))
        self.accepts(answer("        return launch(x) if self.d is None else self.d(x)\n",
                            init="        self.d = None\n"))
        # the tensor alternative is still judged
        self.rejects(answer("        b = self.b\n        if b is not None:\n            b = b.exp()\n"
                            "        return launch(b)\n", init=init), "TORCH_OP_IN_FORWARD")

    def test_layers_built_in_a_loop(self):
        init = ("        self.layers = nn.ModuleList()\n        n = 4\n        for m in [8, 8, 4]:\n"
                "            self.layers.append(nn.Linear(n, m))\n            n = m\n")
        self.accepts(answer("        for layer in self.layers:\n            x = layer(x)\n        return launch(x)\n",
                            init=init), policy="kernelbench")
        self.rejects(answer("        for layer in self.layers:\n            x = layer(x)\n        return x\n",
                            init=init), "TORCH_CORE_OP", policy="kernelbench")

    def test_fan_in_helper(self):
        init = ("        self.w = nn.Parameter(torch.empty(4, 4))\n"
                "        fan_in, _ = nn.init._calculate_fan_in_and_fan_out(self.w)\n"
                "        nn.init.uniform_(self.w, -1 / math.sqrt(fan_in), 1 / math.sqrt(fan_in))\n")
        self.accepts(answer("        return launch(x)\n", init=init, pre="import math\n"))
        self.rejects(answer("        return launch(x)\n", init="        nn.init._no_grad_fill_(torch.empty(2), 0)\n"),
                     "FORBIDDEN_ATTR")

    def test_an_attribute_both_branches_replace(self):
        # self.bias holds the flag first, then a Parameter or None (Qwen3-30B's conv answers): the flag is gone
        init = ("        bias = 1 > 0\n        self.bias = bias\n        if bias:\n"
                "            self.bias = nn.Parameter(torch.zeros(4))\n        else:\n            self.bias = None\n")
        fwd = "        b = self.bias\n        if b is not None:\n            b = b.contiguous()\n        return launch(x)\n"
        self.accepts(answer(fwd, init=init))
        # elif chains too
        init_elif = init.replace("        else:\n", "        elif bias is None:\n            self.bias = None\n"
                                                  "        else:\n")
        self.accepts(answer(fwd, init=init_elif))
        # without an else the flag stays possible: False.contiguous() fails in forward
        self.rejects(answer(fwd, init=init.split("        else:")[0]), "UNRESOLVED_CALL")

    def test_narrowing_keeps_what_may_still_be_there(self):
        mine = "        f = launch\n"
        torch_f = "        f = torch.relu\n"
        both = "        if x.dim() > 1:\n            f = launch\n        else:\n            f = launch\n"
        # replaced on every way through: only launch is called
        self.accepts(answer(torch_f + both + "        return f(x)\n"))
        # an if/else that may not run (in a loop, in one branch of another if) leaves torch.relu possible
        self.rejects(answer(torch_f + "        for _ in range(x.dim()):\n" + both.replace("\n        ", "\n            ")
                            .replace("        if", "            if", 1) + "        return f(x)\n"), "TORCH_OP_IN_FORWARD")
        self.rejects(answer(torch_f + "        if x.numel() > 4:\n            pass\n        else:\n"
                            + both.replace("        ", "            ") + "        return f(x)\n"),
                     "TORCH_OP_IN_FORWARD")
        # a statement that also binds another name on the way is not narrowed for it
        self.rejects(answer(torch_f.replace("f =", "g =") + "        if x.dim() > 1:\n            f = launch\n"
                            "        else:\n            f = g = launch\n        return g(x)\n"), "TORCH_OP_IN_FORWARD")
        self.rejects(answer(torch_f.replace("f =", "g =") + "        if x.dim() > 1:\n            f = (g := launch)\n"
                            "        else:\n            f = launch\n        return g(x)\n"), "TORCH_OP_IN_FORWARD")
        self.accepts(answer(mine + both + "        return f(x)\n"))
        # a branch that leaves first (return, raise) leaves the old value in the instance for forward to call
        self.rejects(answer("        return self.f(x)\n", init="        self.f = torch.relu\n        if 1 > 2:\n"
                            "            return\n        else:\n            self.f = launch\n"), "TORCH_OP_IN_FORWARD")
        self.rejects(answer("        return self.f(x)\n", init="        self.f = torch.relu\n        if 1 > 2:\n"
                            "            return\n            self.f = launch\n        else:\n            self.f = launch\n"),
                     "TORCH_OP_IN_FORWARD")
        # an attribute of a name the if rebinds may be another object's, whose old value stays possible
        pre = "\n\nclass Box:\n    pass\n"
        boxes = "        a = Box()\n        b = Box()\n        b.f = torch.relu\n        o = a\n"
        self.rejects(answer(boxes + "        if x.dim() > 1:\n            o = b\n            o.f = launch\n"
                            "        else:\n            o.f = launch\n        return b.f(x)\n", pre=pre),
                     "TORCH_OP_IN_FORWARD")
        # ... and so may one name that holds either of two objects
        self.rejects(answer(boxes + "        o = a if x.dim() > 1 else b\n        if x.dim() > 2:\n            o.f = launch\n"
                            "        else:\n            o.f = launch\n        return b.f(x)\n", pre=pre),
                     "TORCH_OP_IN_FORWARD")

    def test_writes_that_may_not_happen_add_to_the_target(self):
        # a helper called from a branch (the call may not happen)
        helper = "\n    def use_launch(self):\n        self.f = launch\n"
        init = "        self.f = torch.relu\n        if 1 > 2:\n            self.use_launch()\n"
        self.rejects(answer("        return self.f(x)\n", init=init, post=helper), "TORCH_OP_IN_FORWARD")
        self.accepts(answer("        return self.f(x)\n", init=init.replace("if 1 > 2:\n            ", ""),
                            post=helper))
        # setattr in a branch, setattr of a name stage 0 does not know, a ctx attribute in a branch
        self.rejects(answer("        return self.f(x)\n", init="        self.f = torch.relu\n        if 1 > 2:\n"
                            "            setattr(self, 'f', launch)\n"), "TORCH_OP_IN_FORWARD")
        self.rejects(answer("        return self.f(x)\n", init="        self.f = launch\n        n = 'f' if 1 > 2 else 'g'\n"
                            "        setattr(self, n, torch.relu)\n"), "DYNAMIC_CODE")
        fn = ("\n\nclass Fn(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n"
              "        ctx.f = torch.relu\n        if x.dim() > 5:\n            ctx.f = launch\n        return ctx.f(x)\n")
        self.rejects(answer("        return Fn.apply(x)\n", pre=fn), "TORCH_OP_IN_FORWARD")
        # o.f where o is either of two objects
        box = "\n\nclass Box:\n    pass\n"
        self.rejects(answer("        a = Box()\n        b = Box()\n        b.f = torch.relu\n"
                            "        o = a if x.dim() > 1 else b\n        o.f = launch\n        return b.f(x)\n", pre=box),
                     "TORCH_OP_IN_FORWARD")

    def test_what_may_not_run(self):
        helper = "\n    def use_launch(self):\n        self.f = launch\n        return 0\n"
        fwd = "        return self.f(x)\n"
        relu = "        self.f = torch.relu\n"
        for init in ("        if 1 > 2:\n            return\n        self.f = launch\n",  # after a return in a branch
                     "        self.use_launch() if 1 > 2 else None\n",                 # one operand of a conditional
                     "        1 > 2 and self.use_launch()\n",                          # a short-circuit operand
                     "        setattr(self, 'f', launch) if 1 > 2 else None\n",
                     "        sorted(range(0), key=lambda i: self.use_launch())\n"):  # a key never called
            with self.subTest(init=init):
                self.rejects(answer(fwd, init=relu + init, post=helper), "TORCH_OP_IN_FORWARD")
        # a walrus in one operand, and a closure returned before the name is rebound
        self.rejects(answer("        f = torch.relu\n        (f := launch) if x.dim() > 5 else None\n        return f(x)\n"),
                     "TORCH_OP_IN_FORWARD")
        make = ("\n\ndef make(flag):\n    f = torch.relu\n    g = lambda y: f(y)\n    if flag:\n        return g\n"
                "    f = launch\n    return g\n")
        self.rejects(answer("        return make(x.dim() > 1)(x)\n", pre=make), "TORCH_OP_IN_FORWARD")
        # what follows a return in the same block never runs: it does not replace anything
        self.rejects(answer(fwd, init=relu + "        return\n        self.f = launch\n"), "TORCH_OP_IN_FORWARD")

    def test_what_may_not_run_round_three(self):
        helper = "\n    def use_launch(self):\n        self.f = launch\n        return 1\n"
        fwd = "        return self.f(x)\n"
        relu = "        self.f = torch.relu\n"
        for init in ("        with torch.no_grad():\n            return\n        self.f = launch\n",  # ends the block
                     "        if 1 > 2:\n            m = self.use_launch()\n        else:\n            m = 0\n",
                     "        if 1 > 2:\n            if self.use_launch():\n                m = 1\n            else:\n"
                     "                m = 2\n        else:\n            m = 0\n",
                     "        1 > 2 < self.use_launch()\n",                    # a chained comparison stops early
                     "        assert 1 > 0, self.use_launch()\n",              # the message runs only on failure
                     "        functools.reduce(lambda a, b: self.use_launch(), [], 0)\n"):
            with self.subTest(init=init):
                self.rejects(answer(fwd, init=relu + init, post=helper, pre="import functools\n"), "TORCH_OP_IN_FORWARD")
        # hasattr runs a property's getter
        prop = "\n    def _mode(self):\n        self.f = torch.relu\n        return 1\n\n    mode = property(_mode)\n"
        self.rejects(answer(fwd, init="        self.f = launch\n        hasattr(self, 'mode')\n", post=prop),
                     "TORCH_OP_IN_FORWARD")
        # print(file=obj) calls obj.write; extra_repr runs whenever the module is printed or formatted
        self.rejects(answer("        print(end='', file=self)\n        return launch(x)\n"), "UNRESOLVED_CALL")
        self.rejects(answer("        return launch(x)\n", post="\n    def extra_repr(self):\n        return ''\n"),
                     "PATCHES_HARNESS")
        # a module global rebound after a memoized call read it
        pre = "\n\nF = launch\n\n\ndef get():\n    return F\n\n\nget()\nF = torch.relu\nACT = get()\n"
        self.rejects(answer("        return ACT(x)\n", pre=pre), "TORCH_OP_IN_FORWARD")

    def test_containers_as_python_changes_them(self):
        fwd = "        return self.fns[0](x)\n"
        for change in ("fns.reverse()", "fns.pop(0)", "fns.remove(launch)", "fns.sort(key=lambda f: f is launch)"):
            with self.subTest(change=change):
                self.rejects(answer(fwd, init=f"        fns = [launch, torch.relu]\n        {change}\n        self.fns = fns\n"),
                             "TORCH_OP_IN_FORWARD")
        # += changes the list itself, which self.fns also holds
        self.rejects(answer("        return self.fns[-1](x)\n", init="        fns = [launch]\n        self.fns = fns\n"
                            "        fns += [torch.relu]\n"), "TORCH_OP_IN_FORWARD")
        # a key stage 0 does not know may be any key
        self.rejects(answer("        return self.ops['a'](x)\n", init="        k = 'A'.lower()\n"
                            "        self.ops = {'a': launch, k: torch.relu}\n"), "TORCH_OP_IN_FORWARD")
        self.rejects(answer("        return self.ops.get(str(0))(x)\n", init="        self.ops = {str(0): launch, '0': torch.relu}\n"),
                         "TORCH_OP_IN_FORWARD")

    def test_a_memoized_call_sees_what_its_function_was_made_with(self):
        # a lambda made in a comprehension reads the enclosing name; defaults are part of what it reads
        self.rejects(answer("        return self.f(x)\n", init="        g = launch\n        fs = [lambda: g for _ in range(1)]\n"
                            "        fs[0]()\n        g = torch.relu\n        self.f = fs[0]()\n"), "TORCH_OP_IN_FORWARD")
        make = "\n\ndef make(act):\n    return [lambda g=act: g for _ in (0,)][0]\n"
        self.rejects(answer("        return self.f(x)\n", init="        make(launch)()\n        self.f = make(torch.relu)()\n",
                            pre=make), "TORCH_OP_IN_FORWARD")
        make = "\n\ndef make(act):\n    class H:\n        def run(self, x):\n            return act(x)\n    return H()\n"
        self.rejects(answer("        FAST.run(x)\n        return SLOW.run(x)\n", pre=make,
                            post="\n\nFAST = make(launch)\nSLOW = make(torch.relu)\n"), "TORCH_OP_IN_FORWARD")

    def test_lookup_order_as_python_has_it(self):
        act = "\n\nclass Act(nn.Module):\n    def forward(self, x):\n        return launch(x)\n"
        # a submodule lives behind what the class defines under its name
        shadow = answer("        return self.f(x)\n", init="        self.f = Act()\n", pre=act)
        self.rejects(shadow.replace("class ModelNew(nn.Module):\n", "class ModelNew(nn.Module):\n    f = torch.relu\n\n"),
                     "TORCH_OP_IN_FORWARD")
        self.rejects(answer("        return self.f(x)\n", init="        self.f = Act()\n", pre=act,
                            post="\n    def f(self, x):\n        return torch.relu(x)\n"), "TORCH_OP_IN_FORWARD")
        # C3: ModelNew(Mid, Fast) with Mid(Base) finds Base.act first; super() follows the instance's MRO
        classes = ("\n\nclass Base(nn.Module):\n    def act(self, x):\n        return torch.relu(x)\n\n\n"
                   "class Mid(Base):\n    pass\n\n\nclass Fast:\n    def act(self, x):\n        return launch(x)\n")
        self.rejects(answer("        return self.act(x)\n", pre=classes).replace("class ModelNew(nn.Module):",
                                                                               "class ModelNew(Mid, Fast):"),
                     "TORCH_OP_IN_FORWARD")
        diamond = ("\n\nclass A(nn.Module):\n    def act(self, x):\n        return launch(x)\n\n\n"
                   "class B(A):\n    def act(self, x):\n        return super().act(x)\n\n\n"
                   "class C(A):\n    def act(self, x):\n        return torch.relu(x)\n")
        self.rejects(answer("        return self.act(x)\n", pre=diamond).replace("class ModelNew(nn.Module):",
                                                                               "class ModelNew(B, C):"),
                     "TORCH_OP_IN_FORWARD")

    def test_a_class_body_binds_no_magic_method(self):
        pre = ("\n\ndef _get(self, obj, typ=None):\n    return torch.relu\n\n\nclass Act:\n    __get__ = _get\n\n"
               "    def __call__(self, x):\n        return launch(x)\n")
        self.rejects(answer("        return Act()(x)\n", pre=pre), "MAGIC_METHOD")
        getter = "\n\ndef _get(self, name):\n    return torch.relu\n"
        for bind in ("    for __getattr__ in (_get,):\n        pass\n", "    (__getattr__ := _get)\n"):
            self.rejects(answer("        return launch(x)\n", pre=getter).replace(
                "class ModelNew(nn.Module):\n", "class ModelNew(nn.Module):\n" + bind + "\n"), "MAGIC_METHOD")
        self.accepts(answer("        return launch(x)\n", pre="\n\nclass C:\n    __constants__ = ['n']\n"))

    def test_a_memoized_call_reads_what_was_written_since(self):
        pre = "\n\nclass Box:\n    pass\n\n\nBOX = Box()\nBOX.f = launch\n\n\ndef get():\n    return BOX.f\n"
        self.rejects(answer("        return self.g(x)\n", init="        self.g = get()\n        BOX.f = torch.relu\n"
                            "        self.g = get()\n", pre=pre), "TORCH_OP_IN_FORWARD")

    def test_stage_0_stays_cheap_on_large_values(self):
        # a memo key over 400 x 400 x 400 references, and a call fan-out over a large literal
        c = "[" + ", ".join(["1"] * 400) + "]"
        init = (f"        c = {c}\n        a = [" + ", ".join(["c"] * 400) + "]\n        b = ["
                + ", ".join(["a"] * 400) + "]\n        g(b)\n")
        fan = "".join(f"\n\ndef f{i}(o):\n    f{i - 1}(o)\n    f{i - 1}(o)\n" for i in range(1, 9))
        big = "[" + ", ".join(["0"] * 20000) + "]"
        pre = f"\n\ndef g(z):\n    return 0\n\n\ndef f0(o):\n    o.k = 1\n    return {big}\n" + fan
        for code in (answer("        return launch(x)\n", init=init, pre=pre),
                     answer("        return launch(x)\n", init="        f8(self)\n", pre=pre)):
            t0 = time.process_time()
            static.check(code, "triton", "strict")
            self.assertLess(time.process_time() - t0, 5.0)  # minutes before: a worker stalled by one answer
        # a loop's fixpoint over 48 x 48 x 48 x 48 references at module level (34 s before)
        z = "[" + ", ".join(["0"] * 48) + "]"
        pre = f"\n\nZ = {z}\n" + "".join(f"{b} = [" + ", ".join([a] * 48) + "]\n"
                                              for a, b in (("Z", "Y"), ("Y", "X"), ("X", "W"))) + "for _ in ():\n    pass\n" * 28
        t0 = time.process_time()
        static.check(answer("        return launch(x)\n", pre=pre), "triton", "strict")
        self.assertLess(time.process_time() - t0, 5.0)
        # 3,000 names bound to one 64 x 64 list, and a nested function called 20 times (31 s before)
        l1 = "[" + ", ".join(["0"] * 64) + "]"
        pre = f"\n\nL1 = {l1}\nL2 = [" + ", ".join(["L1"] * 64) + "]\n" + " = ".join(f"N{i}" for i in range(3000)) + " = L2\n"
        init = "        def h():\n            return 0\n" + "        h()\n" * 20
        t0 = time.process_time()
        self.accepts(answer("        return launch(x)\n", init=init, pre=pre))
        self.assertLess(time.process_time() - t0, 5.0)
        # a loop that builds many layers is followed to its end, not given up on (a level-3 answer was)
        init = ("        layers = []\n        for i in range(60):\n            layers.append(nn.Sequential("
                "nn.Conv2d(8, 8, 3), nn.BatchNorm2d(8)))\n        self.features = nn.Sequential(*layers)\n")
        fs = static.check(answer("        return launch(x)\n", init=init), "triton", "strict")
        self.assertFalse([f for f in fs if "gives up" in f.message])

    def test_calls_that_write_or_make_objects_are_followed_each_time(self):
        # the second reset() is not a memo hit: its write comes after self.f = launch
        self.rejects(answer("        return self.f(x)\n", init="        self.f = launch\n        self.reset()\n"
                            "        self.f = launch\n        self.reset()\n",
                            post="\n    def reset(self):\n        self.f = torch.relu\n"), "TORCH_OP_IN_FORWARD")
        # two calls of mk() make two objects, not one
        box = "\n\nclass Box:\n    pass\n\n\ndef mk():\n    return Box()\n"
        self.rejects(answer("        return self.b.f(x)\n", init="        self.a = mk()\n        self.b = mk()\n"
                            "        self.b.f = torch.relu\n        self.a.f = launch\n", pre=box), "TORCH_OP_IN_FORWARD")

    def test_a_property_is_not_a_plain_attribute(self):
        prop = ("\n\ndef _get(self):\n    return torch.relu\n\n\ndef _set(self, v):\n    pass\n")
        code = answer("        return self.act(x)\n", init="        self.act = launch\n", pre=prop)
        code = code.replace("class ModelNew(nn.Module):\n", "class ModelNew(nn.Module):\n    act = property(_get, _set)\n\n")
        self.rejects(code, "TORCH_OP_IN_FORWARD")

    def test_parameters_of_a_layer_in_set_up(self):
        init = ("        self.conv = nn.Conv2d(3, 4, 3)\n        for p in self.conv.parameters():\n"
                "            p.requires_grad = False\n        for n, b in self.named_buffers():\n            pass\n")
        self.accepts(answer("        return launch(x)\n", init=init))
        # a parameter is still a tensor: computing with it in forward is torch doing the work
        self.rejects(answer("        for p in self.conv.parameters():\n            x = x * p.sum()\n"
                            "        return launch(x)\n", init=init), "TORCH_OP_IN_FORWARD")

    def test_layer_moved_in_set_up(self):
        # leaderboard 51_Gemm_Subtract_GlobalAvgPool_LogSumExp_GELU_ResidualAdd (gpt-o1):
        # self.gemm = nn.Linear(...).cuda() was UNRESOLVED_CALL; Module.cuda/to/float/eval return the module
        fwd = "        return launch(self.lin(x))\n"
        for init in ("        self.lin = nn.Linear(4, 4).cuda()\n",
                     "        self.lin = nn.Linear(4, 4).to('cuda').eval()\n",
                     "        self.lin = nn.Linear(4, 4).float()\n",
                     "        self.lin = nn.Linear(4, 4)\n        self.lin.cuda()\n        self.lin.requires_grad_(False)\n"):
            with self.subTest(init=init):
                self.accepts(answer(fwd, init=init), policy="kernelbench")
                # the layer is still known as the layer it is: torch computes the GEMM
                self.rejects(answer(fwd, init=init), "TORCH_CORE_OP")
        # in forward a move or cast of a layer's weights is torch's work in the timed path
        self.assertTrue(codes(answer("        self.lin.half()\n" + fwd, init="        self.lin = nn.Linear(4, 4)\n"),
                              policy="kernelbench"))

    def test_a_layers_output_is_on_its_inputs_device(self):
        # tritonLLM 66_Matmul_Dropout_Softmax (gpt-5): `if not x.is_cuda:` on what nn.Linear returned was GHOST_BRANCH,
        # the same branch on the input a CPU fallback
        init = "        self.lin = nn.Linear(4, 4)\n        self.seq = nn.Sequential(nn.Linear(4, 4))\n"
        for y in ("self.lin(x)", "self.seq(x)", "self.lin(x).view(-1)"):
            for test in ("not y.is_cuda", "y.device.type == 'cpu'"):
                fwd = f"        y = {y}\n        if {test}:\n            return torch.relu(y)\n        return launch(y)\n"
                with self.subTest(y=y, test=test):
                    fs = static.check(answer(fwd, init=init), "triton", "kernelbench")
                    self.assertEqual([f for f in fs if f.fatal], [])
                    self.assertIn("CPU_FALLBACK_NOTE", {f.code for f in fs})
        # a layer on a tensor the answer made on the CPU (a fresh layer in forward) returns a CPU tensor on the GPU too
        fwd = ("        y = nn.Linear(4, 4)(torch.zeros(1, 4))\n        if not y.is_cuda:\n            return torch.relu(x)\n"
               "        return launch(x)\n")
        self.rejects(answer(fwd), "GHOST_BRANCH", policy="kernelbench")

    def test_a_parameters_item_stays_a_host_read(self):
        # leaderboard 68_Matmul_Min_Subtract (gemini-1.5-flash): self.constant.item() of a 0-d nn.Parameter as a kernel
        # scalar. Kept refused: a kernel launched before it in the same call may have written the parameter (it is
        # a kernel argument like any tensor), so the read can bring computed data to the host; the runtime wall
        # refuses aten::_local_scalar_dense in forward too. Passing the parameter itself to the kernel is the fix.
        init = "        self.c = nn.Parameter(torch.tensor(2.0))\n"
        for fwd in ("        c = self.c.item()\n        return launch(x)\n",
                    "        y = launch(x)\n        k[(1,)](x, self.c, 1, BLOCK=128)\n        n = int(self.c.item())\n"
                    "        return y.view(-1)[:n]\n"):
            for policy in ("strict", "kernelbench"):
                with self.subTest(fwd=fwd, policy=policy):
                    fs = static.check(answer(fwd, init=init), "triton", policy)
                    self.assertIn(("TORCH_OP_IN_FORWARD", "torch.Tensor.item"), {(f.code, f.op) for f in fs if f.fatal})
        self.accepts(answer("        y = torch.empty_like(x)\n        k[(1,)](x, y, x.numel(), BLOCK=128)\n"
                            "        k[(1,)](self.c, y, 1, BLOCK=128)\n        return y\n", init=init))

    def test_torch_arithmetic_on_constants_stays_torch(self):
        # tritonLLM 40_LayerNorm (gemini-2.5-pro): int(torch.prod(torch.tensor(self.shape)).item()) multiplies
        # configuration ints with torch in forward. Kept refused: the runtime wall sees aten::prod and
        # aten::_local_scalar_dense in the forward window whatever the tensor holds; math.prod is the host's way.
        init = "        self.shape = (4, 8)\n"
        fs = static.check(answer("        n = int(torch.prod(torch.tensor(self.shape)).item())\n"
                                 "        return launch(x.view(-1, n))\n", init=init), "triton", "kernelbench")
        self.assertIn(("TORCH_OP_IN_FORWARD", "torch.prod"), {(f.code, f.op) for f in fs if f.fatal})
        self.accepts(answer("        n = math.prod(self.shape)\n        return launch(x.view(-1, n))\n", init=init,
                            pre="import math\n"))

    def test_extension_idioms(self):
        base = CUDA.replace("{flags}", "{flags}")
        for flags in (', extra_cflags=[""], extra_ldflags=[""]', ", extra_include_paths=[]",
                      ", extra_ldflags=['-lcublas']"):
            with self.subTest(flags=flags):
                self.accepts(base.replace("{flags}", flags), backend="cuda")
        plain = base.replace("{flags}", "")
        self.accepts(plain.replace("#include <torch/extension.h>", "#include <torch/extension.h>\n#include <cublas_v2.h>"),
                     backend="cuda")
        self.accepts(plain.replace("    return c;", "    return c.view_as(a);"), backend="cuda")
        for body in ("    cublasHandle_t h;\n    cublasCreate(&h);", "    auto f = &cublasSgemm_v2;"):
            with self.subTest(body=body):
                self.rejects(plain.replace("    return c;", body + "\n    return c;"), "TORCH_CORE_OP", backend="cuda")


class Suites(unittest.TestCase):
    """Every answer of the fixture suites gets its stage-0 outcome, fast."""

    def run_manifest(self, rel):
        root = os.path.join(ROOT, "tests", "data", "verifier", os.path.dirname(rel))
        with open(os.path.join(ROOT, "tests", "data", "verifier", rel)) as f:
            fixtures = json.load(f)["fixtures"]
        slowest = 0.0
        for fx in fixtures:
            if fx.get("skip_static") or fx["answer"].endswith(".cu") or fx.get("backend") == "nki":
                continue
            with open(os.path.join(root, fx["answer"])) as f:
                code = f.read()
            t0 = time.process_time()  # this process's CPU time: a loaded machine's waits are not stage 0's
            fs = static.check(code, fx.get("backend", "triton"), fx.get("policy", "strict"))
            slowest = max(slowest, time.process_time() - t0)
            fatal = {f.code for f in fs if f.fatal}
            with self.subTest(fixture=fx["name"]):
                if fx["expect"] == "FAIL_STATIC":
                    self.assertIn(fx["reason"], fatal)
                else:
                    self.assertEqual(fatal, set())
                for code_ in fx.get("expect_findings") or []:
                    self.assertIn(code_, {f.code for f in fs})
                if fx.get("expect_op"):
                    self.assertIn(fx["expect_op"], {f.op for f in fs})
        return len(fixtures), slowest

    def test_redteam_static(self):
        n, slowest = self.run_manifest("redteam/static/manifest.json")
        self.assertGreaterEqual(n, 60)
        self.assertLess(slowest, 0.5)  # stage 0 must stay cheap (typically a few ms of CPU)

    def test_main_suite(self):
        self.run_manifest("manifest.json")

    def test_demo_samples_pass(self):
        d = os.path.join(ROOT, "resources", "demo", "samples")
        for name in sorted(os.listdir(d)):
            with open(os.path.join(d, name)) as f:
                code = f.read()
            fatal = [x for x in static.check(code, "cuda" if "cuda" in name else "triton") if x.fatal]
            with self.subTest(sample=name):
                if name == "rmsnorm_sham.py":
                    self.assertIn("TORCH_OP_IN_FORWARD", {x.code for x in fatal})
                else:
                    self.assertEqual(fatal, [])


if __name__ == "__main__":
    unittest.main()
