"""Stage 0: static checks on a candidate answer with Python's own parser.

The question is not "does it run" but "is this a kernel answer worth training on": ModelNew.forward and
everything it reaches in the module must leave the computing to kernels defined in the file, and the file
must not reach for the process (imports, dynamic code, patching, threads, streams, caches). Each finding
has a reason code from docs/VERIFIER.md and a line number.
"""
import ast
from dataclasses import dataclass

import torch

ALLOWED_IMPORTS = {
    "torch", "triton", "math", "typing", "functools", "itertools", "operator", "dataclasses", "enum",
    "numbers", "collections", "numpy", "__future__", "abc",
}
THREAD_MODULES = {"threading", "_thread", "multiprocessing", "concurrent", "torch.multiprocessing"}
FORBIDDEN_TORCH_MODULES = {"torch.multiprocessing", "torch.distributed", "torch.hub", "torch.package",
                           "torch.utils.data", "torch._dynamo", "torch._inductor", "torch.testing"}
CACHE_NAMES = {"functools.lru_cache", "functools.cache", "functools.cached_property"}
DYNAMIC_BUILTINS = {"exec", "eval", "compile", "__import__", "globals", "locals", "vars"}
FORBIDDEN_BUILTINS = {"open", "input", "breakpoint", "exit", "quit", "help"}
# method names that write files or start processes from C code, which the audit hooks do not see
WRITER_METHODS = {"tofile", "savetxt", "savez", "savez_compressed", "write_bytes", "write_text", "popen", "system",
                  "spawnv", "execv", "execve", "fork", "forkpty", "putenv", "chmod", "chown", "symlink"}
DUNDER_ESCAPES = {"__globals__", "__code__", "__subclasses__", "__bases__", "__mro__", "__builtins__",
                  "__dict__", "__class__", "__getattribute__", "__import__", "__loader__", "__spec__",
                  "f_globals", "f_locals", "f_back", "gi_frame", "tb_frame", "__closure__", "__self__"}
PATCH_ROOTS = {"torch": "PATCHES_TORCH", "triton": "PATCHES_TORCH", "numpy": "PATCHES_TORCH",
               "math": "PATCHES_TORCH", "functools": "PATCHES_TORCH", "operator": "PATCHES_TORCH",
               "time": "PATCHES_TIMER", "builtins": "PATCHES_HARNESS", "sys": "PATCHES_HARNESS",
               "os": "PATCHES_HARNESS", "sieve_worker": "PATCHES_HARNESS", "__builtins__": "PATCHES_HARNESS"}
TIMER_WORDS = ("Event", "elapsed_time", "synchronize", "perf_counter", "time", "record", "do_bench")

# torch.* callables that are allocation, metadata or device glue (allowed in forward)
TORCH_GLUE = {
    "empty", "empty_like", "empty_strided", "zeros", "zeros_like", "ones", "ones_like", "full", "full_like",
    "tensor", "device", "dtype", "Size", "is_tensor", "get_default_dtype", "finfo", "iinfo", "no_grad",
    "inference_mode", "is_floating_point", "numel", "result_type", "promote_types", "is_grad_enabled",
}
TORCH_CUDA_GLUE = {"current_device", "is_available", "device_count", "get_device_properties",
                   "get_device_name", "get_device_capability", "synchronize", "device"}
TORCH_STREAMS = {"Stream", "stream", "current_stream", "default_stream", "set_stream", "ExternalStream",
                 "Event", "StreamContext"}
TORCH_GRAPHS = {"graph", "CUDAGraph", "make_graphed_callables", "graphs", "graph_pool_handle"}
TORCH_FORBIDDEN_CALLS = {"manual_seed", "seed", "set_rng_state", "load", "save", "compile", "use_deterministic_algorithms"}
# tensor methods that only allocate, describe, move or re-view data
TENSOR_GLUE_METHODS = {
    "view", "view_as", "reshape", "reshape_as", "contiguous", "size", "stride", "numel", "dim", "ndimension",
    "element_size", "data_ptr", "is_contiguous", "to", "cpu", "cuda", "flatten", "unflatten", "unsqueeze",
    "squeeze", "permute", "transpose", "t", "expand", "expand_as", "narrow", "select", "unbind", "split",
    "chunk", "new_empty", "new_zeros", "new_ones", "new_full", "new_tensor", "new_empty_strided", "fill_",
    "zero_", "copy_", "clone", "detach", "requires_grad_", "get_device", "type", "item", "tolist",
    "storage_offset", "untyped_storage", "is_floating_point", "is_complex", "movedim", "as_strided",
    "float", "half", "bfloat16", "double", "int", "long", "bool", "short", "char", "byte", "nelement",
    "dim_order", "is_cuda",
}
TENSOR_METHODS = {n for n in dir(torch.Tensor) if not n.startswith("_")} - TENSOR_GLUE_METHODS
# attribute names that mark a name as a tensor when they are used on it
TENSOR_ATTRS = {"shape", "dtype", "device", "data_ptr", "stride", "contiguous", "view", "numel", "is_cuda",
                "reshape", "size", "element_size", "ndim"}
TRITON_ALLOWED_HOST = {"cdiv", "next_power_of_2", "Config", "jit", "autotune", "heuristics", "language",
                       "constexpr", "runtime", "testing"}


def torch_compute(path):
    """Is torch.<path> a callable that computes (not glue, a dtype, a class or a module)?"""
    import types
    parts = path.split(".")
    if parts[-1] in TORCH_GLUE or parts[-1] in TORCH_CUDA_GLUE or parts[-1] in TORCH_STREAMS | TORCH_GRAPHS:
        return False
    obj = torch
    try:
        for p in parts[1:]:
            obj = getattr(obj, p)
    except Exception:
        return parts[1:2] == ["ops"]  # torch.ops.aten.* resolves lazily
    if isinstance(obj, (types.ModuleType, type, torch.dtype, torch.device)) or not callable(obj):
        return False
    return True


@dataclass
class Finding:
    code: str
    line: int
    message: str

    def to_json(self):
        return {"code": self.code, "line": self.line, "message": self.message}


def fold_str(node):
    """Constant-folds string expressions ("soft" + "max", f"{'re'}lu", "".join(["a", "b"]))."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        a, b = fold_str(node.left), fold_str(node.right)
        return a + b if a is not None and b is not None else None
    if isinstance(node, ast.JoinedStr):
        parts = []
        for v in node.values:
            if isinstance(v, ast.FormattedValue):
                s = fold_str(v.value)
            else:
                s = fold_str(v)
            if s is None:
                return None
            parts.append(s)
        return "".join(parts)
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join"
            and len(node.args) == 1 and isinstance(node.args[0], (ast.List, ast.Tuple))):
        sep = fold_str(node.func.value)
        items = [fold_str(e) for e in node.args[0].elts]
        if sep is not None and all(i is not None for i in items):
            return sep.join(items)
    return None


class Analyzer:
    def __init__(self, tree, backend):
        self.tree = tree
        self.backend = backend
        self.findings = []
        self.aliases = {}          # module-level name -> dotted path ("F" -> "torch.nn.functional")
        self.functions = {}        # module-level plain functions
        self.classes = {}          # class name -> ClassDef
        self.kernels = {}          # kernel name -> line (triton.jit / autotune / load_inline results)
        self.ext_names = set()     # names bound to load_inline() extension modules
        self.self_ext_attrs = set()
        self.self_kernel_attrs = set()  # self.<attr> = <kernel> in a method
        self.torch_module_attrs = {}  # class -> {attr set in __init__ from torch.nn.* modules}
        self.tensor_attrs = set()     # self.<attr> that hold tensors (parameters, buffers)
        self.launches = []

    def add(self, code, node, message):
        self.findings.append(Finding(code, getattr(node, "lineno", 0), message))

    # ---- name resolution -------------------------------------------------------------------------
    def resolve(self, node, local=None):
        """Dotted path of an expression that names a module-level object, or None."""
        local = local or {}
        if isinstance(node, ast.Name):
            if node.id in local:
                return local[node.id]
            return self.aliases.get(node.id)
        if isinstance(node, ast.Attribute):
            base = self.resolve(node.value, local)
            return f"{base}.{node.attr}" if base else None
        if isinstance(node, ast.Subscript):
            return self.resolve(node.value, local)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr" \
                and node.func.id not in local and len(node.args) >= 2:
            base = self.resolve(node.args[0], local)
            name = fold_str(node.args[1])
            if base and name:
                return f"{base}.{name}"
        return None

    # ---- pass 1: module-level structure ----------------------------------------------------------
    def collect(self):
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    self.check_import(a.name, node)
                    if a.asname:
                        self.aliases[a.asname] = a.name
                    else:
                        top = a.name.split(".")[0]
                        self.aliases[top] = top
            elif isinstance(node, ast.ImportFrom):
                mod = node.module or ""
                if node.level:
                    self.add("FORBIDDEN_IMPORT", node, "relative import")
                    continue
                self.check_import(mod, node)
                for a in node.names:
                    full = f"{mod}.{a.name}"
                    if full in CACHE_NAMES:
                        self.add("CACHING", node, f"imports {full}")
                    if a.name == "*":
                        self.add("FORBIDDEN_IMPORT", node, f"star import from {mod}")
                        continue
                    self.check_import(full, node, submodule_only=True)
                    self.aliases[a.asname or a.name] = full
        for node in self.tree.body:
            if isinstance(node, ast.FunctionDef):
                self.functions[node.name] = node
                if self.is_kernel_def(node):
                    self.kernels[node.name] = node.lineno
            elif isinstance(node, ast.ClassDef):
                self.classes[node.name] = node
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                value = node.value
                if value is None:
                    continue
                path = self.resolve(value)
                for t in targets:
                    if isinstance(t, ast.Name):
                        if path:
                            self.aliases[t.id] = path
                        if isinstance(value, ast.Name) and value.id in self.functions:
                            self.functions[t.id] = self.functions[value.id]  # run = _impl
                        if isinstance(value, ast.Call):
                            fpath = self.resolve(value.func) or ""
                            if fpath.startswith("triton.") and fpath.split(".")[-1] in ("jit", "autotune", "heuristics"):
                                self.kernels[t.id] = node.lineno
                            if fpath.endswith("cpp_extension.load_inline"):
                                self.ext_names.add(t.id)
                                self.kernels[t.id] = node.lineno
                            # kernel = triton.autotune(...)(triton.jit(fn))
                            if isinstance(value.func, ast.Call):
                                inner = self.resolve(value.func.func) or ""
                                if inner.startswith("triton."):
                                    self.kernels[t.id] = node.lineno
        # ModelNew.__init__: which attributes hold torch modules, tensors or extensions
        for cls in self.classes.values():
            mods = set()
            for fn in cls.body:
                if not isinstance(fn, ast.FunctionDef):
                    continue
                for sub in ast.walk(fn):
                    if isinstance(sub, ast.Assign) and isinstance(sub.value, ast.Call):
                        fpath = self.resolve(sub.value.func) or ""
                        for t in sub.targets:
                            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                                last = fpath.split(".")[-1]
                                if fpath.endswith("cpp_extension.load_inline"):
                                    self.self_ext_attrs.add(t.attr)
                                    self.kernels[f"self.{t.attr}"] = sub.lineno
                                elif fpath.startswith("torch.nn.") and last not in ("Parameter", "ParameterList", "Module"):
                                    mods.add(t.attr)
                                elif fpath.startswith("torch."):
                                    self.tensor_attrs.add(t.attr)
                                elif isinstance(sub.value.func, ast.Name) and sub.value.func.id in self.ext_names:
                                    pass
                    if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) \
                            and sub.func.attr in ("register_buffer", "register_parameter") and sub.args:
                        name = fold_str(sub.args[0])
                        if name:
                            self.tensor_attrs.add(name)
            self.torch_module_attrs[cls.name] = mods
            for sub in ast.walk(cls):
                if isinstance(sub, ast.Assign) and isinstance(sub.value, ast.Name) and sub.value.id in self.kernels:
                    for t in sub.targets:
                        if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                            self.self_kernel_attrs.add(t.attr)

    def is_kernel_def(self, fn):
        for d in fn.decorator_list:
            target = d.func if isinstance(d, ast.Call) else d
            path = self.resolve(target) or ""
            if path.startswith("triton.") and path.split(".")[-1] in ("jit", "autotune", "heuristics"):
                return True
        return False

    def check_import(self, name, node, submodule_only=False):
        top = name.split(".")[0]
        if name in THREAD_MODULES or top in THREAD_MODULES:
            self.add("THREADS", node, f"imports {name}")
            return
        if submodule_only and top not in ALLOWED_IMPORTS:
            return  # already reported for the module itself
        if top not in ALLOWED_IMPORTS:
            self.add("FORBIDDEN_IMPORT", node, f"imports {name}, which is outside the allowlist")
            return
        for bad in FORBIDDEN_TORCH_MODULES:
            if name == bad or name.startswith(bad + "."):
                self.add("FORBIDDEN_IMPORT", node, f"imports {name}")
        if name.startswith("torch.cuda.graph"):
            self.add("CUDA_GRAPHS", node, f"imports {name}")

    # ---- pass 2: whole-module checks ---------------------------------------------------------------
    def module_checks(self):
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Call):
                self.check_call_anywhere(node)
            elif isinstance(node, ast.Attribute):
                if node.attr in DUNDER_ESCAPES:
                    self.add("DYNAMIC_CODE", node, f"uses {node.attr}")
            elif isinstance(node, ast.Name):
                if node.id in ("__builtins__", "__loader__", "__spec__"):
                    self.add("PATCHES_HARNESS", node, f"uses {node.id}")
            elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
                targets = (node.targets if isinstance(node, (ast.Assign, ast.Delete))
                           else [node.target])
                for t in targets:
                    self.check_patch_target(t, node)
            elif isinstance(node, ast.FunctionDef):
                for d in node.decorator_list:
                    path = self.resolve(d.func if isinstance(d, ast.Call) else d) or ""
                    if path in CACHE_NAMES:
                        self.add("CACHING", node, f"{node.name} is decorated with {path}")
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                self.add("CACHING", node, "global/nonlocal state written from a function")

    def check_patch_target(self, t, node):
        for el in (t.elts if isinstance(t, (ast.Tuple, ast.List)) else [t]):
            if not isinstance(el, (ast.Attribute, ast.Subscript)):
                continue
            path = self.resolve(el)
            if not path:
                continue
            top = path.split(".")[0]
            if top in PATCH_ROOTS:
                self.add(self.patch_code(path), node, f"assigns to {path}")

    def patch_code(self, path):
        top = path.split(".")[0]
        code = PATCH_ROOTS[top]
        if code == "PATCHES_TORCH" and any(w in path.split(".")[-1] for w in TIMER_WORDS):
            code = "PATCHES_TIMER"
        return code

    def check_call_anywhere(self, node):
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr in WRITER_METHODS:
            self.add("FORBIDDEN_CALL", node, f"calls .{f.attr}(), which reaches files or processes")
        if isinstance(f, ast.Name):
            if f.id in DYNAMIC_BUILTINS and f.id not in self.aliases:
                self.add("DYNAMIC_CODE", node, f"calls {f.id}()")
            elif f.id in FORBIDDEN_BUILTINS and f.id not in self.aliases:
                self.add("FORBIDDEN_CALL", node, f"calls {f.id}()")
            elif f.id in ("setattr", "delattr") and node.args:
                path = self.resolve(node.args[0])
                if path and path.split(".")[0] in PATCH_ROOTS:
                    self.add(self.patch_code(path), node, f"{f.id}() on {path}")
            elif f.id == "getattr" and len(node.args) >= 2 and fold_str(node.args[1]) is None:
                path = self.resolve(node.args[0])
                if path and path.split(".")[0] in ("torch", "triton", "numpy"):
                    self.add("DYNAMIC_CODE", node, f"getattr on {path} with a computed name")
        path = self.resolve(f)
        if not path:
            return
        parts = path.split(".")
        last = parts[-1]
        if path.startswith("torch.cuda.") or path.startswith("torch.Stream") or path.startswith("torch.Event"):
            if last in TORCH_STREAMS or "stream" in path.lower():
                self.add("STREAMS", node, f"uses {path}")
            if last in TORCH_GRAPHS or ".graphs." in path:
                self.add("CUDA_GRAPHS", node, f"uses {path}")
        if path.startswith("torch.") and (last in TORCH_FORBIDDEN_CALLS or path.startswith("torch.random")):
            if not path.endswith("cpp_extension.load_inline") and "cpp_extension" not in path:
                self.add("FORBIDDEN_CALL", node, f"calls {path}")
        if path.startswith("torch.ops.load_library") or path == "torch.utils.cpp_extension.load":
            self.add("FORBIDDEN_CALL", node, f"calls {path}")
        if parts[0] in ("functools",) and last in ("lru_cache", "cache"):
            self.add("CACHING", node, f"calls {path}")

    # ---- pass 3: ModelNew.forward and what it reaches --------------------------------------------
    def reachable(self):
        model = self.classes.get("ModelNew")
        if model is None:
            return []
        methods = {}  # name -> [FunctionDef] across classes in the module (ModelNew first)
        for cls in [model] + [c for c in self.classes.values() if c is not model]:
            for fn in cls.body:
                if isinstance(fn, ast.FunctionDef):
                    methods.setdefault(fn.name, []).append((cls.name, fn))
        forward = [fn for c, fn in methods.get("forward", []) if c == "ModelNew"]
        # inherited forward from a base class defined in the module
        if not forward:
            for base in model.bases:
                if isinstance(base, ast.Name) and base.id in self.classes:
                    forward = [fn for c, fn in methods.get("forward", []) if c == base.id]
        if not forward:
            return []
        seen, order, todo = set(), [], [("ModelNew", forward[0])]
        while todo:
            cls, fn = todo.pop()
            if id(fn) in seen:
                continue
            seen.add(id(fn))
            order.append((cls, fn))
            for sub in ast.walk(fn):
                if not isinstance(sub, ast.Call):
                    continue
                f = sub.func
                if isinstance(f, ast.Name):
                    if f.id in self.functions and f.id not in self.kernels:
                        todo.append((None, self.functions[f.id]))
                    elif f.id in self.classes:
                        for name in ("__init__", "__call__", "forward"):
                            todo += [(c, m) for c, m in methods.get(name, []) if c == f.id]
                elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "self":
                    if f.attr in methods:
                        todo += methods[f.attr]
                    else:  # a sub-module attribute: its class's forward may be defined here
                        todo += [(c, m) for c, m in methods.get("forward", []) if c != "ModelNew"]
                elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in self.classes:
                    todo += [(c, m) for c, m in methods.get(f.attr, []) if c == f.value.id]
        return order

    def check_function(self, cls, fn, is_forward):
        local_alias = {}
        tensors = set()
        params = [a.arg for a in fn.args.args + fn.args.kwonlyargs]
        if fn.args.vararg:
            params.append(fn.args.vararg.arg)
        for p in params:
            if p in ("self", "cls"):
                continue
            if is_forward:
                tensors.add(p)
        # names used like tensors anywhere in the function are tensors
        for sub in ast.walk(fn):
            if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) and sub.attr in TENSOR_ATTRS:
                if sub.value.id != "self" and sub.value.id not in self.aliases:
                    tensors.add(sub.value.id)
        for d in fn.args.defaults + fn.args.kw_defaults:
            if isinstance(d, (ast.Dict, ast.List, ast.Set)):
                self.add("CACHING", d, f"{fn.name} has a mutable default argument (a cache across calls)")
        module_names = set(self.aliases) | set(self.functions) | set(self.classes)
        local_names = set(params)
        for sub in ast.walk(fn):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                local_names.add(sub.id)

        def is_tensor(e):
            if isinstance(e, ast.Name):
                return e.id in tensors
            if isinstance(e, ast.Attribute):
                if isinstance(e.value, ast.Name) and e.value.id == "self":
                    return e.attr in self.tensor_attrs
                if e.attr in ("T", "mT", "H", "real", "imag", "data", "grad"):
                    return is_tensor(e.value)
                if e.attr in ("weight", "bias"):
                    return True
                return False
            if isinstance(e, ast.Subscript):
                if isinstance(e.value, ast.Attribute) and e.value.attr in ("shape",):
                    return False
                return is_tensor(e.value)
            if isinstance(e, ast.Call):
                path = self.resolve(e.func, local_alias) or ""
                if path.startswith("torch.") and path.split(".")[-1] in TORCH_GLUE - {"device", "dtype", "Size", "finfo", "iinfo"}:
                    return True
                if isinstance(e.func, ast.Attribute) and e.func.attr in TENSOR_GLUE_METHODS \
                        and e.func.attr not in ("size", "stride", "numel", "dim", "data_ptr", "item", "tolist",
                                                "element_size", "is_contiguous", "get_device", "storage_offset",
                                                "nelement", "ndimension"):
                    return is_tensor(e.func.value)
                return False
            if isinstance(e, ast.BinOp):
                return is_tensor(e.left) or is_tensor(e.right)
            if isinstance(e, ast.UnaryOp):
                return is_tensor(e.operand)
            return False

        self.local_kernels = set()
        for sub in ast.walk(fn):
            if isinstance(sub, ast.Assign):
                path = self.resolve(sub.value, local_alias)
                for t in sub.targets:
                    if isinstance(t, ast.Name):
                        if path:
                            local_alias[t.id] = path
                        if is_tensor(sub.value):
                            tensors.add(t.id)
                        if self.kernel_ref(sub.value):  # kernel = fp16_kernel if half else fp32_kernel
                            self.local_kernels.add(t.id)
        # torch functions passed around as values (map(torch.relu, xs), f = F.gelu; operator.mul)
        called, inner = set(), set()
        for sub in ast.walk(fn):
            if isinstance(sub, ast.Call):
                called.add(id(sub.func))
            if isinstance(sub, ast.Attribute):
                inner.add(id(sub.value))
        for sub in ast.walk(fn):
            if isinstance(sub, (ast.Attribute, ast.Name)) and isinstance(sub.ctx, ast.Load) \
                    and id(sub) not in called and id(sub) not in inner:
                path = self.resolve(sub, local_alias) or ""
                if path.startswith("torch.") and torch_compute(path):
                    self.add("TORCH_OP_IN_FORWARD", sub, f"{fn.name} uses {path} as a function value")
        for sub in ast.walk(fn):
            if isinstance(sub, (ast.Try, ast.TryStar if hasattr(ast, "TryStar") else ast.Try)):
                self.add("TRY_EXCEPT_FALLBACK", sub, f"{fn.name} wraps work in try/except")
            elif isinstance(sub, ast.With):
                for item in sub.items:
                    ctx = item.context_expr
                    path = self.resolve(ctx.func if isinstance(ctx, ast.Call) else ctx, local_alias) or ""
                    if path.endswith("suppress"):
                        self.add("TRY_EXCEPT_FALLBACK", sub, "contextlib.suppress around work")
            elif isinstance(sub, ast.BinOp):
                if isinstance(sub.op, ast.MatMult):
                    self.add("TORCH_OP_IN_FORWARD", sub, "matrix product with @ on the host")
                elif is_tensor(sub.left) or is_tensor(sub.right):
                    self.add("TORCH_OP_IN_FORWARD", sub, "tensor arithmetic on the host")
            elif isinstance(sub, ast.AugAssign):
                if is_tensor(sub.target) or is_tensor(sub.value):
                    self.add("TORCH_OP_IN_FORWARD", sub, "in-place tensor arithmetic on the host")
            elif isinstance(sub, ast.UnaryOp) and isinstance(sub.op, (ast.USub, ast.Invert)) and is_tensor(sub.operand):
                self.add("TORCH_OP_IN_FORWARD", sub, "tensor arithmetic on the host")
            elif isinstance(sub, ast.Compare) and (is_tensor(sub.left) or any(is_tensor(c) for c in sub.comparators)):
                if not all(isinstance(o, (ast.Is, ast.IsNot)) for o in sub.ops):
                    self.add("TORCH_OP_IN_FORWARD", sub, "tensor comparison on the host")
            elif isinstance(sub, ast.Call):
                self.check_forward_call(sub, fn, local_alias, is_tensor, cls)
            # state written across calls: self.x = ..., CACHE[k] = ..., Model.cache[k] = ...
            if isinstance(sub, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                targets = sub.targets if isinstance(sub, ast.Assign) else [sub.target]
                for t in targets:
                    for el in (t.elts if isinstance(t, (ast.Tuple, ast.List)) else [t]):
                        root = el
                        while isinstance(root, (ast.Attribute, ast.Subscript)):
                            root = root.value
                        if not isinstance(root, ast.Name) or el is root:
                            continue
                        if root.id == "self" or root.id in self.classes or \
                                (root.id in module_names and root.id not in local_names):
                            self.add("CACHING", sub, f"{fn.name} writes state that outlives the call ({ast.unparse(el)})")

    def kernel_ref(self, e):
        """Does the expression name one of the module's kernels (directly, through a local, self.<attr>
        or a conditional choice between kernels)?"""
        if isinstance(e, ast.Name):
            return e.id in self.kernels or e.id in getattr(self, "local_kernels", ())
        if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) and e.value.id == "self":
            return e.attr in self.self_kernel_attrs
        if isinstance(e, ast.IfExp):
            return self.kernel_ref(e.body) and self.kernel_ref(e.orelse)
        if isinstance(e, ast.Subscript) and isinstance(e.value, (ast.Dict, ast.Name)):
            return False
        return False

    def check_forward_call(self, node, fn, local_alias, is_tensor, cls):
        f = node.func
        # kernel launches: kernel[grid](...), kernel.run(...), ext.fn(...)
        if isinstance(f, ast.Subscript):
            name = f.value.id if isinstance(f.value, ast.Name) else None
            if self.kernel_ref(f.value) or (name and local_alias.get(name, "").split(".")[0] in self.kernels):
                self.launches.append(node)
                return
        if isinstance(f, ast.Attribute):
            base = f.value
            if isinstance(base, ast.Name) and (base.id in self.kernels or base.id in self.ext_names):
                self.launches.append(node)
                return
            if isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name) and base.value.id == "self" \
                    and base.attr in self.self_ext_attrs:
                self.launches.append(node)
                return
        if isinstance(f, ast.Name) and f.id in self.kernels and f.id not in self.ext_names:
            self.add("NO_LAUNCH", node, f"calls kernel {f.id} like a function instead of launching it with a grid")
            return
        path = self.resolve(f, local_alias)
        if path:
            parts = path.split(".")
            last = parts[-1]
            top = parts[0]
            if top == "torch":
                if path.startswith("torch.cuda."):
                    if last in TORCH_CUDA_GLUE:
                        return
                    if last in TORCH_STREAMS or last in TORCH_GRAPHS:
                        return  # reported module-wide
                if path.startswith("torch.utils.cpp_extension"):
                    return
                if last in TORCH_GLUE and len(parts) == 2:
                    return
                if last in TORCH_FORBIDDEN_CALLS:
                    return  # reported module-wide
                self.add("TORCH_OP_IN_FORWARD", node, f"{fn.name} calls {path}")
                return
            if top == "triton":
                if parts[1:2] and parts[1] in TRITON_ALLOWED_HOST:
                    return
                self.add("FORBIDDEN_CALL", node, f"{fn.name} calls {path} on the host")
                return
            if top == "numpy":
                self.add("FORBIDDEN_CALL", node, f"{fn.name} computes with {path} on the host")
                return
            if top == "math":
                return
            if top in ("operator", "functools", "itertools", "builtins") and \
                    any(is_tensor(a) or (self.resolve(a, local_alias) or "").startswith("torch.") for a in node.args):
                self.add("TORCH_OP_IN_FORWARD", node, f"{fn.name} computes on tensors through {path}")
            return
        if isinstance(f, ast.Attribute) and f.attr.startswith("__") and f.attr.endswith("__") \
                and f.attr not in ("__init__", "__len__", "__getitem__", "__setitem__", "__contains__"):
            self.add("TORCH_OP_IN_FORWARD", node, f"{fn.name} calls the dunder method .{f.attr}()")
            return
        if isinstance(f, ast.Attribute):
            # self.<torch module>(x)
            if isinstance(f.value, ast.Name) and f.value.id == "self":
                mods = set().union(*self.torch_module_attrs.values()) if self.torch_module_attrs else set()
                if f.attr in mods:
                    self.add("TORCH_OP_IN_FORWARD", node, f"{fn.name} calls the torch module self.{f.attr}")
                return
            if f.attr in TENSOR_METHODS and (is_tensor(f.value) or f.attr not in
                                             {"append", "extend", "items", "keys", "values", "get", "pop",
                                              "format", "join", "index", "count", "sort", "update", "copy"}):
                self.add("TORCH_OP_IN_FORWARD", node, f"{fn.name} calls the tensor method .{f.attr}()")
            return
        if isinstance(f, ast.Name) and not path:
            if f.id in ("sum", "max", "min", "abs", "pow", "round", "sorted", "map") and any(is_tensor(a) for a in node.args):
                self.add("TORCH_OP_IN_FORWARD", node, f"{fn.name} applies {f.id}() to a tensor")

    def run(self):
        self.collect()
        self.module_checks()
        if "ModelNew" not in self.classes:
            self.add("NO_MODELNEW", self.tree, "the answer defines no class ModelNew")
            return self.findings
        order = self.reachable()
        if not order:
            self.add("NO_MODELNEW", self.classes["ModelNew"], "ModelNew has no forward method")
            return self.findings
        for i, (cls, fn) in enumerate(order):
            self.check_function(cls, fn, is_forward=(i == 0))
        if self.backend in ("triton", "cuda", "torch"):
            if not self.kernels:
                self.add("NO_KERNEL", self.tree, "no @triton.jit kernel or load_inline extension is defined")
            elif not self.launches:
                self.add("NO_LAUNCH", self.classes["ModelNew"],
                         "a kernel is defined but ModelNew.forward never launches one")
        return self.findings


def check(code, backend="triton"):
    """Returns a list of Findings (empty: the answer passes stage 0)."""
    try:
        tree = ast.parse(code)
    except SyntaxError as e:
        return [Finding("PARSE_ERROR", e.lineno or 0, f"syntax error: {e.msg}")]
    findings = Analyzer(tree, backend).run()
    seen, out = set(), []
    for f in sorted(findings, key=lambda f: f.line):
        key = (f.code, f.line)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


def main(argv):
    """python -m sieve_worker.static ANSWER.py [--backend cuda]: print the stage-0 findings."""
    import sys
    backend = argv[argv.index("--backend") + 1] if "--backend" in argv else "triton"
    bad = 0
    for path in [a for a in argv if a.endswith(".py")]:
        with open(path) as f:
            findings = check(f.read(), backend)
        bad += bool(findings)
        for x in findings:
            print(f"{path}:{x.line}: {x.code}: {x.message}")
        if not findings:
            print(f"{path}: passes stage 0")
    sys.stdout.flush()
    return 1 if bad else 0


if __name__ == "__main__":
    import sys
    sys.exit(main(sys.argv[1:]))
