"""Stage 0 models Python as Python does (issue 30 point 6, issue 31 point 4): scoping, default values, generated
methods, super, builtins that hide torch work, empty grids, and the host-side cast rule. One behaviour per test.

    cd gpu/worker && python -m pytest -q ../../tests/worker/test_static_python.py
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from test_static import CUDA, HEAD, Base, answer  # noqa: E402
from sieve_worker.static import static  # noqa: E402


def model(body, cls_body="", init="", pre="", params="self, x"):
    """An answer whose ModelNew has the class-body statements cls_body and the forward body."""
    return (HEAD + pre + "\n\nclass ModelNew(nn.Module):\n" + cls_body + "    def __init__(self):\n"
            "        super().__init__()\n" + (init or "        pass\n") + f"\n    def forward({params}):\n" + body)


class ClassScope(Base):
    """Names bound in a class body are not visible from its methods, lambdas and comprehensions."""

    def test_method_sees_the_module_name_not_the_class_one(self):
        # Python: forward's `act` is the module's torch.relu; the class attribute `act` is never seen
        self.rejects(model("        return act(x)\n", cls_body="    act = staticmethod(launch)\n",
                           pre="\nact = torch.relu\n"), "TORCH_OP_IN_FORWARD")

    def test_lambda_in_class_body_sees_the_module_name(self):
        self.rejects(model("        return self.run(x)\n", cls_body="    go = launch\n    run = lambda self, x: go(x)\n",
                           pre="\ngo = torch.sigmoid\n"), "TORCH_OP_IN_FORWARD")

    def test_comprehension_in_class_body_sees_the_module_name(self):
        # the first iterable is evaluated in the class body; the element expression is not
        self.rejects(model("        return self.fns[0](x)\n",
                           cls_body="    f = launch\n    fns = [f for _ in range(1)]\n", pre="\nf = torch.tanh\n"),
                     "TORCH_OP_IN_FORWARD")

    def test_first_iterable_sees_the_class_body(self):
        self.accepts(model("        return self.fns[0](x)\n",
                           cls_body="    base = [launch]\n    fns = [g for g in base]\n"))

    def test_module_function_named_forward(self):
        # issue 31: a module-level `forward` that ModelNew.forward calls is that function, not the method
        self.accepts(HEAD.replace("def launch(x):", "def forward(x):") + '''

class ModelNew(nn.Module):
    def forward(self, x):
        return forward(x)
''')

    def test_class_body_still_sees_its_own_names(self):
        self.accepts(model("        return self.fns[0](x)\n", cls_body="    g = launch\n    fns = (g,)\n"))


class Defaults(Base):
    """Parameters the harness does not pass keep their default values."""

    def test_init_default_function(self):
        self.rejects(answer("        return self.act(x)\n", init="        self.act = act\n").replace(
            "def __init__(self):", "def __init__(self, act=torch.relu):"), "TORCH_OP_IN_FORWARD")

    def test_init_default_grid_function(self):
        src = answer("        y = torch.empty_like(x)\n        k[self.grid](x, y, x.numel(), BLOCK=128)\n"
                     "        return y\n", init="        self.grid = grid\n",
                     pre="\ndef bad_grid(meta):\n    return (int(torch.ones(1).sum()),)\n")
        self.rejects(src.replace("def __init__(self):", "def __init__(self, grid=bad_grid):"), "TORCH_OP_IN_FORWARD")

    def test_init_default_object_with_string_like_method_names(self):
        pre = "\nclass Ops:\n    def lower(self, x):\n        return torch.softmax(x, -1)\n"
        src = answer("        return self.ops.lower(x)\n", init="        self.ops = ops\n", pre=pre)
        self.rejects(src.replace("def __init__(self):", "def __init__(self, ops=Ops()):"), "TORCH_OP_IN_FORWARD")

    def test_forward_default_function(self):
        self.rejects(model("        return act(x)\n", params="self, x, act=torch.exp"), "TORCH_OP_IN_FORWARD")

    def test_init_config_default_is_fine(self):
        self.accepts(answer("        return launch(x)\n", init="        self.n = n\n").replace(
            "def __init__(self):", "def __init__(self, n=4):"))


class Dataclasses(Base):
    def test_generated_init_sets_the_field(self):
        pre = "\n\n@dataclasses.dataclass\nclass Cfg:\n    act: object = launch\n"
        src = answer("        return self.cfg.act(x)\n", init="        self.cfg = Cfg(torch.relu)\n", pre=pre)
        self.rejects("import dataclasses\n" + src, "TORCH_OP_IN_FORWARD")

    def test_generated_init_keyword(self):
        pre = "\n\n@dataclasses.dataclass\nclass Cfg:\n    n: int = 4\n    act: object = launch\n"
        src = answer("        return self.cfg.act(x)\n", init="        self.cfg = Cfg(act=torch.relu)\n", pre=pre)
        self.rejects("import dataclasses\n" + src, "TORCH_OP_IN_FORWARD")

    def test_generated_init_default_stays(self):
        pre = "\n\n@dataclasses.dataclass\nclass Cfg:\n    n: int = 4\n    act: object = launch\n"
        src = answer("        return self.cfg.act(x)\n", init="        self.cfg = Cfg(8)\n", pre=pre)
        self.accepts("import dataclasses\n" + src)


class Super(Base):
    def test_two_argument_super_skips_to_the_named_class(self):
        pre = '''

class Base(nn.Module):
    def forward(self, x):
        return torch.relu(x)


class Mid(Base):
    def forward(self, x):
        return launch(x)
'''
        src = (HEAD + pre + "\n\nclass ModelNew(Mid):\n    def forward(self, x):\n"
               "        return super(Mid, self).forward(x)\n")
        self.rejects(src, "TORCH_OP_IN_FORWARD")

    def test_two_argument_super_of_the_own_class(self):
        pre = "\n\nclass Mid(nn.Module):\n    def forward(self, x):\n        return launch(x)\n"
        src = (HEAD + pre + "\n\nclass ModelNew(Mid):\n    def __init__(self):\n        super(ModelNew, self).__init__()\n"
               "\n    def forward(self, x):\n        return super(ModelNew, self).forward(x)\n")
        self.accepts(src)


class TorchCallsBack(Base):
    def test_parametrize(self):
        pre = "\n\nclass Soft(nn.Module):\n    def forward(self, w):\n        return torch.softmax(w, -1)\n"
        src = answer("        return launch(self.lin.weight)\n",
                     init="        self.lin = nn.Linear(4, 4)\n"
                          "        torch.nn.utils.parametrize.register_parametrization(self.lin, 'weight', Soft())\n",
                     pre=pre)
        self.rejects(src, "HOOKS")

    def test_weight_norm(self):
        src = answer("        return launch(self.lin.weight)\n",
                     init="        self.lin = nn.utils.weight_norm(nn.Linear(4, 4))\n")
        self.rejects(src, "HOOKS")


class Builtins(Base):
    def test_reversed_tensor_is_a_flip(self):
        self.rejects(answer("        return launch(reversed(x))\n"), "TORCH_OP_IN_FORWARD")

    def test_index_with_a_list_is_a_gather(self):
        self.rejects(answer("        return launch(x[[1, 0]])\n"), "TORCH_OP_IN_FORWARD")

    def test_index_with_a_list_name_is_a_gather(self):
        self.rejects(answer("        idx = [1, 0]\n        return launch(x[idx])\n"), "TORCH_OP_IN_FORWARD")

    def test_index_with_a_tuple_of_lists_is_a_gather(self):
        self.rejects(answer("        return launch(x[[0, 1], [1, 0]])\n"), "TORCH_OP_IN_FORWARD")

    def test_index_with_a_range_is_a_gather(self):
        self.rejects(answer("        return launch(x[range(2)])\n"), "TORCH_OP_IN_FORWARD")

    def test_basic_indexing_is_fine(self):
        self.accepts(answer("        return launch(x[0, 1:, None, ...].view(-1)[:4])\n"))

    def test_computing_builtins_on_tensors(self):
        for expr in ("sorted(x)", "max(x)", "min(x)", "sum(x)", "abs(x)", "divmod(x, 2)", "pow(x, 2)", "round(x)",
                     "any(x)", "all(x)", "sum(list(x))", "max(tuple(x))", "sorted(list(x))", "max(*x)",
                     "int(x)", "float(x)", "bool(x)", "str(x)", "range(x)", "len(str(x))"):
            with self.subTest(expr=expr):
                self.rejects(answer(f"        v = {expr}\n        return launch(x)\n"), "TORCH_OP_IN_FORWARD")

    def test_index_with_a_tuple_name_is_basic(self):
        self.accepts(answer("        idx = (0, slice(None))\n        return launch(x[idx])\n"))

    def test_iterating_a_tensor_gives_views(self):
        self.accepts(answer("        rows = list(x)\n        return launch(rows[0])\n"))


class EmptyGrid(Base):
    def grid(self, g, pre=""):
        return answer(f"        y = torch.empty_like(x)\n        k[{g}](x, y, x.numel(), BLOCK=128)\n"
                      f"        return y\n", pre=pre)

    def test_empty_tuple(self):
        self.rejects(self.grid("()"), "NO_LAUNCH")

    def test_zero_programs(self):
        self.rejects(self.grid("(0,)"), "NO_LAUNCH")

    def test_zero_in_a_later_dimension(self):
        self.rejects(self.grid("(4, 0)"), "NO_LAUNCH")

    def test_grid_lambda_returning_zero(self):
        self.rejects(self.grid("lambda meta: (0,)"), "NO_LAUNCH")

    def test_grid_function_returning_empty(self):
        self.rejects(self.grid("g", pre="\ndef g(meta):\n    return ()\n"), "NO_LAUNCH")

    def test_grid_name_zero(self):
        self.rejects(answer("        y = torch.empty_like(x)\n        G = (0,)\n        k[G](x, y, x.numel(), BLOCK=128)\n"
                            "        return y\n"), "NO_LAUNCH")

    def test_a_real_launch_beside_an_empty_one_counts(self):
        self.accepts(answer("        y = torch.empty_like(x)\n        k[(0,)](x, y, x.numel(), BLOCK=128)\n"
                            "        return launch(x)\n"))

    def test_unknown_size_is_a_launch(self):
        self.accepts(self.grid("(x.shape[0] // 1000,)"))


class IncludeGuard(Base):
    """issue 31: `#define X_H` with `#include` on the next line is an include guard, not token pasting."""

    def guarded(self, guard):
        return CUDA.replace("{flags}", "").replace('SRC = """\n', 'SRC = """\n' + guard)

    def test_include_guard_passes(self):
        self.accepts(self.guarded("#ifndef COPY_EXT_H\n#define COPY_EXT_H\n#include <cuda_runtime.h>\n#endif\n"),
                     backend="cuda")

    def test_define_then_blank_line_then_directive(self):
        self.accepts(self.guarded("#ifndef G\n#define G\n\n#include <cuda.h>\n#endif\n"), backend="cuda")

    def test_pasting_is_still_refused(self):
        self.rejects(self.guarded("#define CAT(a, b) a ## b\n"), "EXTENSION_SOURCE", backend="cuda")

    def test_hash_body_through_a_line_splice_is_still_refused(self):
        self.rejects(self.guarded("#define H \\\n  #\n"), "EXTENSION_SOURCE", backend="cuda")


class HostCasts(Base):
    """Host-side dtype casts around an own kernel: strict refuses them, kernelbench notes them (issue 31)."""
    FORMS = ("launch(x.float()).half()", "launch(x.to(torch.float32)).to(x.dtype)", "launch(x.to(dtype=torch.float16))",
             "launch(x.bfloat16())", "launch(x).type_as(self.w)", "launch(x.double()).float()")

    def test_strict_refuses_a_cast(self):
        for form in self.FORMS:
            with self.subTest(form=form):
                self.rejects(answer(f"        return {form}\n", init="        self.w = nn.Parameter(torch.ones(1))\n"),
                             "TORCH_OP_IN_FORWARD")

    def test_strict_refuses_the_output_cast_back(self):
        self.rejects(answer("        y = launch(x)\n        return y.to(torch.float16).to(x.dtype)\n"),
                     "TORCH_OP_IN_FORWARD")

    def test_kernelbench_notes_a_cast_around_a_kernel(self):
        for form in self.FORMS:
            with self.subTest(form=form):
                fs = static.check(answer(f"        return {form}\n", init="        self.w = nn.Parameter(torch.ones(1))\n"),
                                  "triton", "kernelbench")
                self.assertEqual([f for f in fs if f.fatal], [])
                self.assertIn("HOST_CAST_ALLOWED", {f.code for f in fs})
                self.assertTrue(all(f.op.startswith("torch.Tensor.") for f in fs if f.code == "HOST_CAST_ALLOWED"))

    def test_kernelbench_refuses_a_cast_without_a_kernel(self):
        self.rejects(answer("        return x.half().float()\n"), "TORCH_OP_IN_FORWARD", policy="kernelbench")

    def test_kernelbench_refuses_a_cast_of_a_reordered_view(self):
        # the transpose would be torch's copy kernel: the cast carries a layout change with it
        self.rejects(answer("        return launch(x.t().float())\n"), "TORCH_OP_IN_FORWARD", policy="kernelbench")

    def test_kernelbench_refuses_a_device_move_or_copy(self):
        for form in ("launch(x.to('cpu'))", "launch(x.clone())", "launch(x.to(torch.float32, copy=True))",
                     "launch(x.cpu())"):
            with self.subTest(form=form):
                self.rejects(answer(f"        return {form}\n"), "TORCH_OP_IN_FORWARD", policy="kernelbench")

    def test_device_and_copy_keywords_are_the_same_cast(self):
        # tritonLLM 6_Matmul_with_large_K_dimension_ (gpt-5 search dab1d5): A.to(device='cuda', dtype=torch.float32,
        # copy=False) was refused while A.to(dtype=torch.float32) was noted
        for form in ("launch(x.to(device='cuda', dtype=torch.float32, copy=False))",
                     "launch(x.to('cuda', torch.float32))", "launch(x.to(torch.device('cuda'), torch.float16))",
                     "launch(x.to(x.device, dtype=torch.float16, non_blocking=True, copy=False))"):
            with self.subTest(form=form):
                fs = static.check(answer(f"        return {form}\n"), "triton", "kernelbench")
                self.assertEqual([f for f in fs if f.fatal], [])
                self.assertIn("HOST_CAST_ALLOWED", {f.code for f in fs})
                self.rejects(answer(f"        return {form}\n"), "TORCH_OP_IN_FORWARD")

    def test_a_move_to_the_inputs_device_is_no_cast(self):
        # the same answer returns C.to(orig_device) with orig_device = A.device: a no-op under both policies
        for fwd in ("        d = x.device\n        return launch(x).to(d)\n",
                    "        return launch(x.to('cuda'))\n", "        return launch(x.to(device='cuda', copy=False))\n",
                    "        return launch(x.to(x.device, copy=False))\n"):
            for policy in ("strict", "kernelbench"):
                with self.subTest(fwd=fwd, policy=policy):
                    self.accepts(answer(fwd), policy=policy)

    def test_a_copy_or_another_device_stays_refused(self):
        for form in ("x.to(device='cuda', dtype=torch.float32, copy=True)", "x.to('cuda', copy=True)",
                     "x.to('cuda:1', torch.float32)", "x.to(device='cpu', dtype=torch.float32)",
                     "x.to(torch.float32, copy=self.training)", "x.to(torch.float32, False, True)",
                     "x.to(self.dev)"):
            # self.dev: set-up runs before the harness moves the model, so a device read there is the CPU
            init = "        self.w = nn.Parameter(torch.ones(1))\n        self.dev = self.w.device\n"
            with self.subTest(form=form):
                self.rejects(answer(f"        return launch({form})\n", init=init), "TORCH_OP_IN_FORWARD",
                             policy="kernelbench")

    def test_a_helper_is_judged_per_device_and_dtype_argument(self):
        # a call of the answer's own code is memoized by its arguments: t.to(d) is a no-op for d "cuda" or x.device
        # and a copy or cast for "cpu" or a dtype, so what a scalar argument is belongs in the key
        pre = "\n\ndef move(t, d):\n    return t.to(d)\n"
        for second in ("'cpu'", "torch.empty(0, dtype=torch.float16).dtype"):
            for first in ("'cuda'", "x.device"):
                fwd = f"        y = move(x, {first})\n        return launch(move(x, {second}))\n"
                with self.subTest(first=first, second=second):
                    self.rejects(answer(fwd, pre=pre), "TORCH_OP_IN_FORWARD")
        self.accepts(answer("        y = move(x, 'cuda')\n        return launch(move(x, x.device))\n", pre=pre))


if __name__ == "__main__":
    unittest.main()
