"""Stage 0: an answer must be written in a small, default-deny language (docs/VERIFIER.md, "Stage 0").

Two passes over Python's own parse of the answer:
- the whole file (this module): imports, dynamic code, introspection, patching, hooks, dispatch modes,
  threads, streams, graphs, caches, try/except and the bodies of @triton.jit kernels, wherever they are;
- the code reachable from ModelNew's entry points (resolver.py): every call must resolve to a kernel
  launch, an allocation, shape/view glue, parameter set-up or the answer's own code.
Each finding has a reason code, a line, a message, `fatal` (false for notes such as CPU_FALLBACK_NOTE and
TORCH_CORE_OP_ALLOWED) and, for torch ops, the op's canonical name. Needs no torch: it reads the code only.
"""
import ast
from dataclasses import dataclass

from . import lang, resolver


@dataclass
class Finding:
    code: str
    line: int
    message: str
    fatal: bool = True
    op: str = None

    def to_json(self):
        out = {"code": self.code, "line": self.line, "message": self.message, "fatal": self.fatal}
        if self.op:
            out["op"] = self.op
        return out


# attribute names that are modules outside the language, on whatever object (ndarray.ctypes, x.os)
ESCAPE_ATTRS = {"ctypes", "os", "sys", "subprocess", "socket", "importlib", "builtins", "gc", "inspect", "pickle",
                "marshal", "multiprocessing", "threading", "shutil", "mmap", "cffi"}
WRITER_METHODS = {"tofile", "savetxt", "savez", "savez_compressed", "write_bytes", "write_text", "popen", "system",
                  "spawnv", "execv", "execve", "fork", "forkpty", "putenv", "chmod", "chown", "symlink"}


class FilePass:
    """Rules that hold everywhere in the file, with a light resolver (import aliases and simple name
    assignments) for dotted paths."""

    def __init__(self, tree, add):
        self.tree = tree
        self.add = add
        self.aliases = {}
        self.user = set()  # module-level classes and functions of the answer
        self.parents = {}

    def path(self, node):
        if isinstance(node, ast.Name):
            return self.aliases.get(node.id)
        if isinstance(node, ast.Attribute):
            base = self.path(node.value)
            return f"{base}.{node.attr}" if base else None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr" \
                and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) \
                and isinstance(node.args[1].value, str):
            base = self.path(node.args[0])
            return f"{base}.{node.args[1].value}" if base else None
        return None

    def root(self, node):
        while isinstance(node, (ast.Attribute, ast.Subscript)):
            node = node.value
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr" and node.args:
            return self.root(node.args[0])
        return node

    def run(self):
        nodes = list(ast.walk(self.tree))  # one walk: the passes below reuse it
        for node in nodes:
            for c in ast.iter_child_nodes(node):
                self.parents[id(c)] = node
        bound = set()
        for node in nodes:
            if isinstance(node, ast.Import):
                for a in node.names:
                    self.aliases[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                for a in node.names:
                    if a.name != "*":
                        self.aliases[a.asname or a.name] = f"{node.module}.{a.name}"
            elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                bound.add(node.id)
            elif isinstance(node, ast.arg):
                bound.add(node.arg)
            elif isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
                bound.add(node.name)
        self.bound = bound
        for node in self.tree.body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
                self.user.add(node.name)
        assigns = [n for n in nodes if isinstance(n, ast.Assign) and len(n.targets) == 1
                   and isinstance(n.targets[0], ast.Name)]
        for _ in range(2):  # t = torch; F = t.nn.functional
            for node in assigns:
                p = self.path(node.value)
                if p and node.targets[0].id not in self.aliases:
                    self.aliases[node.targets[0].id] = p
        for node in nodes:
            m = getattr(self, "on_" + type(node).__name__, None)
            if m:
                m(node)

    # ---- imports --------------------------------------------------------------------------------
    def check_module(self, name, node):
        top = name.split(".")[0]
        if name in lang.THREAD_MODULES or top in lang.THREAD_MODULES:
            self.add("THREADS", node, f"imports {name}")
        elif name not in lang.ALLOWED_MODULES:
            self.add("FORBIDDEN_IMPORT", node, f"imports {name}, which is outside stage 0's module allowlist")
            if name.startswith("torch.cuda.graph"):
                self.add("CUDA_GRAPHS", node, f"imports {name}")
            return False
        return True

    def on_Import(self, node):
        for a in node.names:
            self.check_module(a.name, node)

    def on_ImportFrom(self, node):
        if node.level:
            self.add("FORBIDDEN_IMPORT", node, "relative import")
            return
        mod = node.module or ""
        if not self.check_module(mod, node):
            return
        for a in node.names:
            full = f"{mod}.{a.name}"
            if a.name == "*":
                self.add("FORBIDDEN_IMPORT", node, f"star import from {mod}")
            elif full in lang.THREAD_MODULES:
                self.add("THREADS", node, f"imports {full}")
            elif full in lang.ALLOWED_MODULES:
                continue
            elif a.name in lang.FORBIDDEN_ATTRS or a.name.startswith("_") and full not in lang.PRIVATE_OK or \
                    a.name in lang.LIB_FORBIDDEN.get(mod, ()) or \
                    (mod == "torch.utils" and a.name not in lang.TORCH_UTILS_ALLOWED):
                self.add("FORBIDDEN_IMPORT", node, f"imports {full}, which is outside stage 0's language")
            elif mod == "functools" and a.name in lang.FUNCTOOLS_CACHES:
                self.add("CACHING", node, f"imports {full}")

    # ---- names and attributes -------------------------------------------------------------------
    def on_Name(self, node):
        if isinstance(node.ctx, ast.Load) and node.id not in self.bound and node.id not in self.aliases:
            if node.id in lang.DYNAMIC_BUILTINS:
                self.add("DYNAMIC_CODE", node, f"uses {node.id}")
            elif node.id in lang.INTROSPECTION_BUILTINS:
                self.add("INTROSPECTION", node, f"uses {node.id}")
            elif node.id in ("open", "breakpoint", "memoryview", "input"):
                self.add("FORBIDDEN_CALL", node, f"uses {node.id}")
        if node.id in ("__builtins__", "__loader__", "__spec__"):
            self.add("PATCHES_HARNESS", node, f"uses {node.id}")
        elif node.id in lang.DISPATCH_WORDS:
            self.add("DISPATCH_MODE", node, f"uses {node.id}")
        elif node.id in lang.HOOK_WORDS:
            self.add("HOOKS", node, f"uses {node.id}")

    def on_Attribute(self, node):
        a = node.attr
        if a.startswith("__") and a.endswith("__"):
            if a in lang.DISPATCH_WORDS:
                self.add("DISPATCH_MODE", node, f"uses {a}")
            elif a not in lang.DUNDER_OK:
                self.add("INTROSPECTION", node, f"uses {a}: dunder attributes walk into the interpreter")
            return
        if a in ESCAPE_ATTRS:
            self.add("FORBIDDEN_ATTR", node, f"reaches .{a}, a module outside stage 0's language")
        if a in lang.INTROSPECTION_ATTRS:
            self.add("INTROSPECTION", node, f"uses .{a} (frames, code objects or closures)")
            return
        if a in lang.HOOK_WORDS:
            self.add("HOOKS", node, f"uses .{a}: hooks run code the forward does not show")
        if a in lang.DISPATCH_WORDS:
            self.add("DISPATCH_MODE", node, f"uses {a}")
        base = self.path(node.value)
        if not base:
            return
        root = base.split(".")[0]
        full = f"{base}.{a}"
        if root in ("torch", "triton", "math", "typing", "functools", "itertools", "operator", "dataclasses",
                    "collections"):
            private = a.startswith("_") and not base.startswith("torch.ops.") and full not in lang.PRIVATE_OK
            if a in lang.FORBIDDEN_ATTRS or private or a in lang.LIB_FORBIDDEN.get(base, ()) or \
                    (base == "torch.utils" and a not in lang.TORCH_UTILS_ALLOWED):
                self.add("FORBIDDEN_ATTR", node, f"reaches {full}, which is outside stage 0's language")
        if lang.calls_back(full):
            self.add("HOOKS", node, f"uses {full}: torch runs the answer's code through it where forward does not "
                                    f"show it")
        if root == "torch" and a in lang.STREAM_WORDS:
            self.add("STREAMS", node, f"uses {full}")
        if root == "torch" and a in lang.GRAPH_WORDS:
            self.add("CUDA_GRAPHS", node, f"uses {full}")

    # ---- calls ----------------------------------------------------------------------------------
    def on_Call(self, node):
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr in WRITER_METHODS:
            self.add("FORBIDDEN_CALL", node, f"calls .{f.attr}(), which reaches files or processes")
        if isinstance(f, ast.Name) and f.id not in self.aliases and f.id not in self.user:
            n = f.id
            if n in lang.DYNAMIC_BUILTINS:
                self.add("DYNAMIC_CODE", node, f"calls {n}()")
            elif n in lang.INTROSPECTION_BUILTINS:
                self.add("INTROSPECTION", node, f"calls {n}()")
            elif n in ("open", "input", "breakpoint", "exit", "quit", "help", "memoryview", "bytearray"):
                self.add("FORBIDDEN_CALL", node, f"calls {n}()")
            elif n in ("setattr", "delattr") and node.args:
                p = self.path(node.args[0])
                if p and p.split(".")[0] in lang.PATCH_ROOTS:
                    self.add(patch_code(p), node, f"{n}() on {p}")
                elif not (isinstance(node.args[0], ast.Name) and node.args[0].id == "self"
                          and self.enclosing_def(node) == "__init__" and n == "setattr"):
                    self.add("DYNAMIC_CODE", node, f"{n}() outside __init__ of the answer's own module")
            elif n in ("getattr", "hasattr") and len(node.args) >= 2 and not (
                    isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)):
                self.add("DYNAMIC_CODE", node, f"{n}() with a computed attribute name")
            elif n in ("getattr", "hasattr", "setattr", "delattr") and len(node.args) >= 2 and \
                    isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str) and \
                    (node.args[1].value.startswith("__") or node.args[1].value in lang.INTROSPECTION_ATTRS):
                self.add("INTROSPECTION", node, f"{n}() reaches {node.args[1].value}")
        p = self.path(f)
        if not p:
            return
        parts = p.split(".")
        if parts[0] == "functools" and parts[-1] in lang.FUNCTOOLS_CACHES:
            self.add("CACHING", node, f"calls {p}")
        if parts[0] == "operator" and parts[-1] in ("attrgetter", "methodcaller", "itemgetter", "call"):
            self.add("DYNAMIC_CODE", node, f"calls {p}: a computed attribute or method access")
        if parts[0] == "torch" and (parts[-1] in resolver.TORCH_FORBIDDEN_CALLS
                                    or parts[-1].startswith("manual_seed")):
            if "cpp_extension" not in p:
                self.add("FORBIDDEN_CALL", node, f"calls {p}")
        if p.startswith("torch.utils.cpp_extension.") and parts[-1] != "load_inline":
            self.add("FORBIDDEN_CALL", node, f"calls {p}: extensions are built from inline sources only")

    def enclosing_def(self, node):
        n = self.parents.get(id(node))
        while n is not None and not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            n = self.parents.get(id(n))
        return n.name if n is not None else None

    # ---- writes ---------------------------------------------------------------------------------
    def on_Assign(self, node):
        for t in node.targets:
            self.check_target(t, node)

    def on_AugAssign(self, node):
        self.check_target(node.target, node)

    def on_AnnAssign(self, node):
        self.check_target(node.target, node)

    def on_Delete(self, node):
        for t in node.targets:
            self.check_target(t, node)

    def check_target(self, t, node):
        for el in (t.elts if isinstance(t, (ast.Tuple, ast.List)) else [t]):
            if isinstance(el, ast.Starred):
                el = el.value
            if not isinstance(el, (ast.Attribute, ast.Subscript)):
                continue
            p = self.path(el.value) if isinstance(el, ast.Attribute) else self.path(el.value)
            if p is None:
                r = self.root(el)
                p = self.aliases.get(r.id) if isinstance(r, ast.Name) else None
            if p and p.split(".")[0] in lang.PATCH_ROOTS:
                full = f"{p}.{el.attr}" if isinstance(el, ast.Attribute) else p
                self.add(patch_code(full), node, f"writes {full}, an attribute of a library")
                continue
            r = self.root(el)
            if isinstance(r, ast.Name) and r.id in self.user and self.enclosing_def(node) is None \
                    and not self.is_container_def(r.id):
                self.add("DYNAMIC_CODE", node, f"rebinds {ast.unparse(el)} outside its definition")

    def is_container_def(self, name):
        return False

    # ---- statements -----------------------------------------------------------------------------
    def on_Global(self, node):
        self.add("CACHING", node, "global/nonlocal state written from a function")

    on_Nonlocal = on_Global

    def on_Try(self, node):
        if self.parents.get(id(node)) is self.tree and all(import_only(b) for b in [node.body] +
                                                             [h.body for h in node.handlers]) \
                and not node.orelse and not node.finalbody:
            return  # try: from triton.language.extra import libdevice / except ImportError: ...
        self.add("TRY_EXCEPT_FALLBACK", node, "wraps code in try/except: a failure must fail, not fall back")

    on_TryStar = on_Try

    def on_With(self, node):
        for item in node.items:
            ctx = item.context_expr
            p = self.path(ctx.func if isinstance(ctx, ast.Call) else ctx) or ""
            if p.endswith("suppress"):
                self.add("TRY_EXCEPT_FALLBACK", node, "contextlib.suppress around work")

    def on_Yield(self, node):
        self.add("UNSUPPORTED_SYNTAX", node, "generators are not part of stage 0's language")

    on_YieldFrom = on_Yield

    def on_Await(self, node):
        self.add("UNSUPPORTED_SYNTAX", node, "async code is not part of stage 0's language")

    on_AsyncFunctionDef = on_Await
    on_AsyncWith = on_Await
    on_AsyncFor = on_Await

    def on_Match(self, node):
        self.add("UNSUPPORTED_SYNTAX", node, "match statements are not part of stage 0's language")

    def on_Lambda(self, node):
        for d in node.args.defaults + node.args.kw_defaults:
            if isinstance(d, (ast.Dict, ast.List, ast.Set)):
                self.add("CACHING", d, "a lambda has a mutable default argument (a cache across calls)")

    def on_FunctionDef(self, node):
        for d in node.decorator_list:
            p = self.path(d.func if isinstance(d, ast.Call) else d) or ""
            if p.split(".")[-1] in lang.FUNCTOOLS_CACHES and p.startswith("functools"):
                self.add("CACHING", node, f"{node.name} is decorated with {p}")
        for d in node.args.defaults + node.args.kw_defaults:
            if isinstance(d, (ast.Dict, ast.List, ast.Set)):
                self.add("CACHING", d, f"{node.name} has a mutable default argument (a cache across calls)")

    def on_ClassDef(self, node):
        module_class = False
        for b in node.bases:
            p = self.path(b)
            if isinstance(b, ast.Name) and b.id in self.user:
                module_class = True  # judged on its own definition
                continue
            if p in ("torch.nn.Module", "torch.nn.modules.module.Module"):
                module_class = True
                continue
            if p in lang.ALLOWED_BASES or (isinstance(b, ast.Name) and b.id == "object" and b.id not in self.aliases):
                continue
            if p and any(w in p for w in lang.DISPATCH_WORDS):
                self.add("DISPATCH_MODE", b, f"class {node.name} derives from {p}")
            else:
                self.add("FORBIDDEN_BASE", b, f"class {node.name} derives from {p or ast.unparse(b)}: classes may "
                                              f"derive from nn.Module, torch.autograd.Function or each other")
        for k in node.keywords:
            self.add("FORBIDDEN_BASE", node, f"class {node.name} sets {k.arg}=")
        for st in node.body:
            if not isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
                # `__get__ = _get`, `for __getattr__ in (f,): pass`, `(__getattr__ := f)`, `import f as
                # __getattr__` in a class body define a magic method as surely as a def does
                for n in class_body_bindings(st):
                    if n.startswith("__") and n.endswith("__") and n not in lang.CLASS_DATA_DUNDERS:
                        self.add("MAGIC_METHOD", st, f"class {node.name} binds {n}, which runs outside forward")
                    elif module_class and n in lang.NN_MODULE_API and n not in lang.MODULE_METHODS_OK:
                        self.add("PATCHES_HARNESS", st, f"class {node.name} rebinds nn.Module.{n}, which the "
                                                        f"harness calls")
                continue
            n = st.name
            if n in ("__torch_function__", "__torch_dispatch__"):
                self.add("DISPATCH_MODE", st, f"class {node.name} defines {n}")
            elif n.startswith("__") and n.endswith("__") and n not in lang.ALLOWED_DUNDER_DEFS:
                self.add("MAGIC_METHOD", st, f"class {node.name} defines {n}, which runs outside forward")
            elif module_class and n in lang.NN_MODULE_API and n not in lang.MODULE_METHODS_OK:
                self.add("PATCHES_HARNESS", st, f"class {node.name} overrides nn.Module.{n}, which the harness calls")


def class_body_bindings(st):
    """The names a statement of a class body binds in the class (nested classes bind only their own name)."""
    if isinstance(st, ast.ClassDef):
        return [st.name]
    out = []
    for x in ast.walk(st):
        if isinstance(x, ast.Name) and isinstance(x.ctx, (ast.Store, ast.Del)):
            out.append(x.id)
        elif isinstance(x, ast.alias):
            out.append(x.asname or x.name.split(".")[0])
        elif isinstance(x, ast.ExceptHandler) and x.name:
            out.append(x.name)
        elif isinstance(x, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.append(x.name)
    return out


def import_only(body):
    return all(isinstance(s, (ast.Import, ast.ImportFrom, ast.Pass)) or
               (isinstance(s, ast.Assign) and isinstance(s.value, (ast.Constant, ast.Name, ast.Attribute)))
               for s in body)


def patch_code(path):
    code = lang.PATCH_ROOTS[path.split(".")[0]]
    if code == "PATCHES_TORCH" and any(w in path.split(".")[-1] for w in lang.TIMER_WORDS):
        code = "PATCHES_TIMER"
    return code


class KernelPass:
    """The bodies of @triton.jit functions: Triton's language only. Under TRITON_INTERPRET a kernel body
    runs as Python, so a call that is not triton.language, another kernel or a small builtin is refused."""

    def __init__(self, res, add):
        self.res = res
        self.add = add

    def run(self):
        seen = set()
        for k in self.res.kernels:
            if k.node is None or id(k.node) in seen:
                continue
            seen.add(id(k.node))
            self.check(k.node)

    def local_names(self, fn):
        names = {a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs}
        for n in ast.walk(fn):
            if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
                names.add(n.id)
            elif isinstance(n, ast.arg):
                names.add(n.arg)
        return names

    def global_ok(self, name, node, fn):
        v = self.res.module.get(name)
        if v is None:
            if name in lang.KERNEL_BUILTINS or name in ("True", "False", "None"):
                return True
            self.add("UNRESOLVED_VALUE", node, f"kernel {fn.name} refers to {name}, which is not defined")
            return False
        for a in resolver.alts(v):
            if a.kind == "lib" and a.path.split(".")[0] == "triton":
                continue
            if a.kind in ("kernel", "scalar"):
                continue
            if a.kind == "lib" and a.path.split(".")[0] == "torch":
                self.add("TORCH_OP_IN_FORWARD", node, f"kernel {fn.name} refers to {a.path}: under TRITON_INTERPRET "
                                                      f"a kernel body runs torch as Python", op=a.path)
                return False
            self.add("UNRESOLVED_VALUE", node, f"kernel {fn.name} refers to {name} ({a.kind}), which is not "
                                               f"Triton's language")
            return False
        return True

    def check(self, fn):
        if isinstance(fn, ast.Lambda):
            fn.name = "<lambda>"
        local = self.local_names(fn)
        body = [fn.body] if isinstance(fn, ast.Lambda) else fn.body
        for n in (x for st in body for x in ast.walk(st)):
            if isinstance(n, (ast.Try, ast.With, ast.ClassDef, ast.FunctionDef, ast.Lambda, ast.Global,
                              ast.Nonlocal, ast.Delete, ast.Import, ast.ImportFrom)):
                self.add("UNSUPPORTED_SYNTAX", n, f"kernel {fn.name} uses {type(n).__name__}, which is not Triton's "
                                                  f"language")
            elif isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id not in local:
                self.global_ok(n.id, n, fn)
            elif isinstance(n, ast.Call):
                f = n.func
                if not isinstance(f, (ast.Name, ast.Attribute)):
                    self.add("UNRESOLVED_CALL", n, f"kernel {fn.name} calls {ast.unparse(f)}, which is not Triton's "
                                                   f"language")
                elif isinstance(f, ast.Name) and f.id in local:
                    self.add("UNRESOLVED_CALL", n, f"kernel {fn.name} calls its parameter or local {f.id}")
                elif isinstance(f, ast.Name) and f.id not in self.res.module and f.id not in lang.KERNEL_BUILTINS:
                    self.add("UNRESOLVED_CALL", n, f"kernel {fn.name} calls {f.id}(), which is not Triton's language")
                elif isinstance(f, ast.Name) and f.id in self.res.module:
                    v = self.res.module[f.id]
                    if not all(a.kind == "kernel" or (a.kind == "lib" and a.path.startswith("triton."))
                               for a in resolver.alts(v)):
                        self.add("UNRESOLVED_CALL", n, f"kernel {fn.name} calls {f.id}, which is not a @triton.jit "
                                                       f"function or triton.language")


def check(code, backend="triton", policy="strict"):
    """Returns the Findings of stage 0 (none, or only non-fatal ones: the answer passes)."""
    if policy not in lang.POLICIES:
        raise ValueError(f"unknown stage-0 policy {policy!r} (one of {', '.join(lang.POLICIES)})")
    try:
        tree = ast.parse(code)
    except SyntaxError as e:
        return [Finding("PARSE_ERROR", e.lineno or 0, f"syntax error: {e.msg}")]
    except (ValueError, RecursionError, MemoryError) as e:
        return [Finding("PARSE_ERROR", 0, f"cannot parse: {type(e).__name__}")]
    findings = []

    def add(code_, node, message, op=None, fatal=True):
        findings.append(Finding(code_, getattr(node, "lineno", 0) or 0, message, fatal and code_ not in lang.NON_FATAL,
                                op))
    try:
        FilePass(tree, add).run()
        res = resolver.Resolver(tree, backend, policy, add)
        res.run_module()
        model = res.module.get("ModelNew")
        models = [a for a in resolver.alts(model) if a.kind == "class"]
        for a in resolver.alts(model):
            if a.kind == "class" or not models:
                continue
            # `ModelNew = Real if c else nn.Softmax`: the harness builds whichever it is bound to
            what = a.path if a.kind == "lib" else a.kind
            if a.kind == "lib" and a.path.split(".")[0] == "torch":
                add("TORCH_OP_IN_FORWARD", tree, f"ModelNew may be bound to {what}: torch would be the model", op=a.path)
            else:
                add("UNRESOLVED_VALUE", tree, f"ModelNew may be bound to a {what}, not a class of the answer")
        if not models:
            add("NO_MODELNEW", tree, "the answer defines no class ModelNew")
        else:
            entries = []
            for m in models:  # `ModelNew` bound in several branches: every one is judged
                got = res.run_entries(m)
                if not got:
                    add("NO_MODELNEW", m.node, "ModelNew has no forward method")
                entries += got
            KernelPass(res, add).run()
            kernels = res.kernels + [e for e in res.exts if e.info.has_kernel]
            if backend in ("triton", "cuda", "torch") and entries:
                if not kernels:
                    what = "no @triton.jit kernel or load_inline extension with a __global__ kernel is defined"
                    add("NO_KERNEL", tree, what)
                elif not res.launches:
                    add("NO_LAUNCH", models[0].node, "a kernel is defined but ModelNew's forward never launches one "
                                                     "on the GPU path")
            if not res.launches:
                for f in [f for f in findings if f.code == "HOST_CAST_ALLOWED"]:
                    add("TORCH_OP_IN_FORWARD", ast.Pass(lineno=f.line), f"{f.op} casts in torch and none of the answer's kernels runs beside "
                                                  f"it (policy kernelbench allows a host-side cast only around a "
                                                  f"kernel)", op=f.op)
                for f in [f for f in findings if f.code == "TORCH_CORE_OP_ALLOWED"]:
                    add("TORCH_CORE_OP", tree, f"{f.op} runs in torch and none of the answer's kernels runs beside "
                                               f"it (policy kernelbench allows a core op only with a kernel)", op=f.op)
    except RecursionError:
        add("PARSE_ERROR", tree, "the answer nests too deeply for stage 0 to read")
    except resolver.Budget:
        add("UNRESOLVED_CALL", tree, f"stage 0 gives up following the answer after {resolver.MAX_STEPS} steps: "
                                     f"it is too large or too deeply nested to judge")
    seen, out = set(), []
    for f in sorted(findings, key=lambda f: (f.line, not f.fatal)):
        key = (f.code, f.line, f.op)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


def fatal(findings):
    return [f for f in findings if f.fatal]


def main(argv):
    """python -m sieve_worker.static.static ANSWER.py [--backend cuda] [--policy kernelbench]: print the findings."""
    import sys
    import time
    backend = argv[argv.index("--backend") + 1] if "--backend" in argv else "triton"
    policy = argv[argv.index("--policy") + 1] if "--policy" in argv else "strict"
    bad = 0
    for path in [a for a in argv if a.endswith(".py")]:
        with open(path) as f:
            code = f.read()
        t0 = time.perf_counter()
        findings = check(code, backend, policy)
        ms = (time.perf_counter() - t0) * 1000
        bad += bool(fatal(findings))
        for x in findings:
            print(f"{path}:{x.line}: {x.code}{'' if x.fatal else ' (note)'}: {x.message}")
        if not fatal(findings):
            print(f"{path}: passes stage 0 ({ms:.1f} ms)")
    sys.stdout.flush()
    return 1 if bad else 0


if __name__ == "__main__":
    import sys
    sys.exit(main(sys.argv[1:]))
