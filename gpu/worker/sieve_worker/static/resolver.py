"""Stage 0's resolver: an abstract interpreter over the answer's AST.

It runs the module body (set-up), builds ModelNew as the harness does (its __init__ with configuration
arguments), then follows forward and __call__ with tensor arguments into everything they reach: helper
functions and methods (per call site, with the argument kinds of that site), lambdas, functools.partial,
autograd.Function.apply, helper modules, kernels' grid functions and autotune/heuristics hooks. Every
callee is resolved to a value of a known kind (lang.py says which kinds may be called where); a callee
that does not resolve is rejected (UNRESOLVED_CALL), not accepted. Values are abstract: a tensor is a
tensor, a shape is a scalar, containers keep their elements, so `OPS["relu"](x)`, `self.fns[0](x)` and
`KERNELS[x.dtype][grid](...)` resolve to what they hold.
"""
import contextlib
import time

from . import lang
from .calls import Calls
from .expressions import Expressions
from .library import Library
from .statements import Statements
# Budget, MAX_STEPS, TORCH_FORBIDDEN_CALLS and alts: static.py's names for them
from .values import (Budget, FLAGGED, Frame, MAX_CONSTS, MAX_CPU_SECONDS, MAX_SIG_NODES, MAX_STEPS, NOCONST,
                     TORCH_FORBIDDEN_CALLS, UNKNOWN, V, alts, scalar, tensor, union)  # noqa: F401


class Resolver(Statements, Expressions, Calls, Library):
    MAX_DEPTH = 40

    def __init__(self, tree, backend, policy, add):
        self.tree = tree
        self.backend = backend
        self.policy = policy
        self.add = add        # add(code, node, message, op=None, fatal=True)
        self.module = {}
        self.modframe = Frame(self.module, None, "setup")
        self.kernels = []     # kernel V values (jit functions) defined in the file
        self.exts = []        # extension V values (load_inline)
        self.launches = []    # forward-path launch nodes (not inside a CPU-only branch)
        self.core_allowed = []
        self.memo = {}
        self.effects = 0      # writes to objects and objects made: a call that did any is not memoized
        self.cond_calls = 0   # >0 inside a call made from a branch: its writes to objects merge
        self.cond_expr = 0    # >0 in the operands of a conditional expression, and/or, a library's callback
        self.shape_left = 0   # what settled() may still visit
        self.shape_seen = {}  # (id, depth) -> (value, shape) within one settled()
        self.deadline = time.process_time() + MAX_CPU_SECONDS
        self.active = set()
        self.depth = 0
        self.fallback = 0     # >0 inside a CPU-only branch
        self.fallback_noted = set()
        self.if_stack = []
        self.frames = []      # active function frames (containers made in them are per-call)
        self.launch_args = {}  # id(kernel) -> {param name: V}
        self.launched = []
        self.steps = 0

    # ---- reporting --------------------------------------------------------------------------------
    def torch_op(self, node, op, desc, fr):
        if fr.mode != "forward":
            return
        if self.fallback:
            key = id(self.if_stack[-1]) if self.if_stack else 0
            if key not in self.fallback_noted:
                self.fallback_noted.add(key)
                self.add("CPU_FALLBACK_NOTE", node, f"{desc} in a branch taken only without a GPU", op=op,
                         fatal=False)
            return
        core = lang.core_op(op)
        why = lang.not_core(core, node)
        if why:
            core, desc = None, f"{desc} ({why})"
        if core and self.policy == "kernelbench":
            self.add("TORCH_CORE_OP_ALLOWED", node, f"{desc}: torch keeps the core op {core} (policy kernelbench)",
                     op=core, fatal=False)
            self.core_allowed.append((node, core))
            return
        self.add("TORCH_OP_IN_FORWARD", node, f"{fr.fname} {desc}", op=op)
        if core:
            self.add("TORCH_CORE_OP", node, f"{fr.fname} runs the core op {core} in torch", op=core)
        if self.if_stack:
            self.add("GHOST_BRANCH", self.if_stack[-1],
                     f"a branch of {fr.fname} that the GPU path can take computes with torch ({op})")

    def patch(self, path, node, fr):
        root = path.split(".")[0]
        code = lang.PATCH_ROOTS.get(root, "PATCHES_HARNESS")
        if code == "PATCHES_TORCH" and any(w in path.split(".")[-1] for w in lang.TIMER_WORDS):
            code = "PATCHES_TIMER"
        self.add(code, node, f"{fr.fname} writes {path}, an attribute of a library")

    def unresolved_call(self, node, what, fr):
        self.add("UNRESOLVED_CALL", node, f"{fr.fname} calls {what}, which stage 0 cannot resolve to a kernel "
                                          f"launch, an allocation, shape glue or the answer's own code")
        return FLAGGED

    # ---- names ------------------------------------------------------------------------------------
    def lookup(self, name, fr, node):
        f = fr
        while f is not None:
            # the names of a class body are not visible from its methods, lambdas and comprehensions: they
            # see the enclosing functions' names and the module's
            if name in f.env and (f is fr or not f.classbody):
                return f.env[name]
            f = f.parent
        if name in self.module:
            return self.module[name]
        if name in ("True", "False", "None", "__name__", "NotImplemented", "Ellipsis"):
            return scalar()
        if name == "__builtins__":
            return FLAGGED  # reported by the whole-file pass
        return V("lib", path="builtins." + name)

    def bind(self, name, v, fr):
        if v is None:
            v = UNKNOWN
        if fr.env is self.module:
            self.effects += 1  # what a memoized call read may have changed
        if (fr.branch or fr.left or self.cond_expr) and name in fr.env:
            v = union([fr.env[name], v])
            consts = [a for a in alts(v) if a.kind == "scalar" and a.const is not NOCONST and a.info != "dtype"]
            if len(consts) > MAX_CONSTS:
                v = union([a for a in alts(v) if a not in consts] + [scalar()])
        fr.env[name] = v

    # ---- module ---------------------------------------------------------------------------------
    def run_module(self):
        self.exec_block(self.tree.body, self.modframe, module=True)

    def spend(self, n):
        """n steps of the budget (statements, calls, literal elements), and the CPU-time backstop."""
        self.steps += n
        if self.steps > MAX_STEPS or time.process_time() > self.deadline:
            raise Budget()

    # ---- calls of the answer's own code ---------------------------------------------------------
    def sig(self, v):
        """A call's memo key for an argument. Containers, instances and ctx objects are mutable: the key
        holds their current contents too, so a helper called again after `fns[0] = ...` or `box.f = ...`
        is followed again. A key of more than MAX_SIG_NODES values (400 references to a list of 400
        references to ...) is a fresh object, equal to no other: that call is followed again, not memoized."""
        try:
            return self.sig_of(v, 0, [MAX_SIG_NODES])
        except OverflowError:
            return (object(),)

    def sig_of(self, v, depth, left):
        out = []
        for a in alts(v):
            left[0] -= 1
            if left[0] < 0:
                raise OverflowError
            if a.kind == "tensor":
                out.append(("t", a.origin, a.reordered))
            elif a.kind in ("scalar", "unknown"):
                # what the callee's verdict may turn on: a dtype or device value, a string or flag constant
                # (t.to(d) with d "cuda" is a no-op, with d "cpu" a copy)
                c = a.const
                out.append((a.kind, a.info if a.info in ("dtype", "device") else None,
                            ("c", c) if isinstance(c, (str, bool)) or c is None else None))
            elif a.kind in ("container", "instance", "ctx") and depth < 3:
                held = list(a.items or []) + [x for kv in (a.pairs or []) for x in kv] + list(a.extra or []) + \
                    [x for kv in sorted((a.attrs or {}).items(), key=lambda kv: kv[0]) for x in kv]
                out.append((a.kind, a, tuple(x if isinstance(x, str) else self.sig_of(x, depth + 1, left)
                                             for x in held)))
            else:
                out.append((a.kind, a))  # the value itself: an id could be reused once it is freed
        return tuple(out)

    def shape(self, v, depth=0):
        """What a value is, without which object it is: a loop body that makes a fresh list or lambda on
        every pass has settled once the shapes of what its names hold stop changing. A value held in many
        places is visited once per settled() (shape_seen)."""
        seen = self.shape_seen.get((id(v), depth))
        if seen is not None and seen[0] is v:
            return seen[1]
        out = self.shape_of(v, depth)
        self.shape_seen[(id(v), depth)] = (v, out)
        return out

    def shape_of(self, v, depth):
        out = set()
        for a in alts(v):
            k = a.kind
            self.shape_left -= 1
            if self.shape_left < 0:
                raise Budget()
            if k == "tensor":
                out.add(("t", a.origin, a.reordered, a.dtsrc))
            elif k in ("scalar", "unknown"):
                c = a.const
                out.add((k, c if isinstance(c, (str, int, float, bool, type(None))) else None, a.flagged,
                         a.info if a.info in ("dtype", "device") else None))
            elif depth >= 3:
                out.add((k,))
            elif k in ("container", "instance", "ctx"):
                held = list(a.items or []) + [x for kv in (a.pairs or []) for x in kv] + list(a.extra or [])
                out.add((k, id(a.cls.node) if a.cls is not None else None,
                         frozenset(self.shape(x, depth + 1) for x in held),
                         frozenset((n, self.shape(x, depth + 1)) for n, x in (a.attrs or {}).items())))
            elif k == "func":
                out.add((k, id(a.node), self.shape(union((a.defaults or ([], {}))[0]), depth + 1)))
            elif k in ("bound", "partial", "static", "classm", "prop"):
                out.add((k, self.shape(a.inner, depth + 1), frozenset(self.shape(x, depth + 1) for x in a.args or []),
                         frozenset((n, self.shape(x, depth + 1)) for n, x in (a.kwargs or {}).items())))
            elif k == "lib":
                out.add((k, a.path))
            elif k == "tmethod":
                out.add((k, a.name, a.origin, a.reordered))
            elif k == "layer":
                # a torch layer made on each pass (layers.append(nn.Linear(n, m)) in a loop) is the same kind
                # of value every time: what it is, not which object
                out.add((k, a.path, frozenset(self.shape(x, depth + 1) for x in a.items or [])
                         if a.items is not None else None))
            else:
                out.add((k, id(a)))
        return frozenset(out)

    def settled(self, fr):
        """What a loop body's names hold, by shape (see shape()); more than MAX_SIG_NODES values in all is
        more than stage 0 follows through a loop (Budget)."""
        f, out = fr, {}
        self.shape_left, self.shape_seen = MAX_SIG_NODES * 4, {}
        while f is not None:
            out.update({(id(f), k): self.shape(v) for k, v in f.env.items()})
            f = f.parent
        for k, v in self.module.items():
            out[("m", k)] = self.shape(v)
        return out

    @contextlib.contextmanager
    def may_not_run(self):
        """Code evaluated inside may not run (an operand of a conditional expression, a library's callback):
        its writes and walrus bindings merge, and the calls it makes are conditional calls."""
        self.cond_expr += 1
        try:
            yield
        finally:
            self.cond_expr -= 1

    def merges(self, fr):
        """A write here may not happen (a branch, a call made from one, code after a return in a branch, a
        conditional expression's operand): it adds to what the target held."""
        return fr.branch > 0 or fr.left or self.cond_calls > 0 or self.cond_expr > 0

    # ---- entry points ---------------------------------------------------------------------------
    def run_entries(self, model):
        """Builds ModelNew as the harness does and follows its entry points; returns their names."""
        fr = Frame({}, None, "setup", fname="ModelNew.__init__")
        inst = self.instantiate(model, [], {}, self.tree, fr, fill="config")
        ffr = Frame({}, None, "forward", fname="ModelNew")
        entries = []
        own = inst.attrs.get("forward") if self.is_module_class(model) else None
        if own is not None:
            # self.forward = ... in __init__: nn.Module.__call__ runs that, not the class's forward
            for f in alts(own):
                if f.kind == "func":
                    self.call_func(f, [], {}, f.node, ffr, fill="input")
                elif f.kind == "bound" and f.inner.kind == "func":
                    self.call_func(f.inner, list(f.args), {}, f.inner.node, ffr, fill="input")
                else:
                    self.call_value(f, [tensor("input")], {}, model.node, ffr)
        for name in ("forward", "__call__"):
            m, _ = self.class_attr(model, name)
            if m is not None:
                entries.append(name)
                for f in alts(self.bind_method(m, inst)):
                    if f.kind == "bound" and f.inner.kind == "func":
                        self.call_func(f.inner, [inst], {}, f.inner.node, ffr, fill="input")
                    elif f.kind == "func":
                        self.call_func(f, [], {}, f.node, ffr, fill="input")
                    else:
                        self.call_value(f, [tensor("input")], {}, model.node, ffr)
        # hooks that Triton runs around a launch (heuristics, config pre-hooks, prune functions)
        done = set()
        for _ in range(3):
            for k in list(self.launched):
                for h in list(k.hooks):
                    if id(h) in done:
                        continue
                    done.add(id(h))
                    hook_fr = Frame({}, None, "forward", fname=f"a hook of {k.name}")
                    self.call_value(h, [V("meta", kernel=k)], {}, h.node or model.node, hook_fr)
        return entries
