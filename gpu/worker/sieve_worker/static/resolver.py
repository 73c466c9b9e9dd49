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
import ast
import contextlib
import time

from . import cppext, lang


class V:
    """An abstract value. kind says what it is; the other fields depend on the kind."""
    __slots__ = ("kind", "path", "const", "origin", "node", "env", "items", "pairs", "extra", "frame", "cls",
                 "attrs", "inner", "args", "kwargs", "hooks", "name", "info", "flagged", "defaults", "alts",
                 "owner", "kernel", "grid", "reordered", "dtsrc")

    def __init__(self, kind, **kw):
        self.kind = kind
        for k in self.__slots__[1:]:
            setattr(self, k, None)
        for k, v in kw.items():
            setattr(self, k, v)

    def __repr__(self):
        return f"V({self.kind}{' ' + self.path if self.path else ''})"


NOCONST = object()  # a scalar whose value stage 0 does not know
UNKNOWN = V("unknown")
FLAGGED = V("unknown", flagged=True)  # the producer was already reported: no second finding on use
# what `None.attr` and `None(...)` give: nothing, they raise (AttributeError, TypeError) and an answer has no
# try/except, so the forward fails there. `b.contiguous()` where b may be None (an optional bias) is a call
# on the tensor alternative only.
RAISES = V("unknown", flagged=True)


def dtype_value():
    """t.dtype: x.view(d) with it is a bitcast, not a reshape."""
    return V("scalar", const=NOCONST, info="dtype")


def scalar(const=NOCONST):
    return V("scalar", const=const)


def tensor(origin="other", reordered=False, dtsrc=None):
    """reordered: a view that moved elements (x.t(), x[:, 1:]): copying it is the computation of some tasks.
    dtsrc: the forward parameter whose dtype this tensor is known to have (an input, its views, *_like(input))."""
    return V("tensor", origin=origin, reordered=reordered, dtsrc=dtsrc)


def union(values):
    out, seen = [], set()
    for v in values:
        if v is None:
            continue
        for a in (v.alts if v.kind == "union" else [v]):
            if a.kind in ("scalar", "unknown"):
                c = a.const
                key = (a.kind, c if isinstance(c, (str, int, float, bool, type(None))) else id(c), a.flagged,
                       a.info == "dtype")
            else:
                key = id(a)
            if a.kind == "tensor":
                key = ("tensor", a.origin, a.reordered, a.dtsrc)
            if key not in seen:
                seen.add(key)
                out.append(a)
    if not out:
        return None
    return out[0] if len(out) == 1 else V("union", alts=out)


def alts(v):
    if v is None:
        return []
    return v.alts if v.kind == "union" else [v]


def has_kind(v, kinds, depth=0):
    """Does v (or, through containers, what it holds) have one of kinds?"""
    for a in alts(v):
        if a.kind in kinds:
            return True
        if a.kind == "container" and depth < 4 and has_kind(members(a), kinds, depth + 1):
            return True
    return False


def elements(c):
    """What subscripting a container can yield (a dict's values)."""
    vals = list(c.items or []) + [v for _, v in (c.pairs or [])] + list(c.extra or [])
    return union(vals)


def keys(c):
    return union([k for k, _ in (c.pairs or [])] + list(c.extra or [])) if c.pairs is not None else elements(c)


def members(c):
    """Everything a container holds, a dict's keys included: iterating a dict (`for k in d`, `sum(d)`,
    `k, = d`, `list(d)`) yields its keys, which may be tensors."""
    return union([elements(c)] + [k for k, _ in (c.pairs or [])])


MAX_STEPS = 50_000      # statements, calls and literal elements followed per answer: stage 0 runs in the
MAX_CPU_SECONDS = 20.0  # trusted worker; the CPU-time backstop for whatever the step count does not see
MAX_SIG_NODES = 4096    # a memo key larger than this is never reused (the call is followed again)
MAX_CONST = 1 << 20      # longest folded string constant
MAX_LOOP_PASSES = 8      # passes over a loop body (or comprehension) to reach its fixpoint
MAX_CONSTS = 8           # distinct constants a rebound name keeps before it is just "a scalar"


class Budget(Exception):
    """The answer is too large (or too cunningly nested) to follow within stage 0's budget."""


class Frame:
    def __init__(self, env, parent, mode, cls=None, fname="<module>"):
        self.env = env
        self.parent = parent  # enclosing function frame for closures (None: module)
        self.mode = mode      # "setup" or "forward"
        self.cls = cls
        self.fname = fname
        self.returns = []
        self.branch = 0       # >0 inside an if/loop body: a rebinding merges with the old value
        self.left = False     # a return or raise in a branch ran: what follows may not run (it merges too)
        self.home = self      # the function frame whose call owns what is made here (comprehensions: the caller)
        self.classbody = False  # a class body's names are seen by its own statements only (Python's scoping)


class Resolver:
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

    # ---- statements -----------------------------------------------------------------------------
    def exec_block(self, stmts, fr, module=False):
        """Runs a block; True when it ended in a return or raise (what follows it never runs)."""
        for s in stmts:
            if self.exec_stmt(s, fr, module) or self.ends_block(s, fr):
                return True
        return False

    @staticmethod
    def ends_block(s, fr):
        """After a return or raise the rest of its block never runs; in a branch, what follows the branch
        may not run either (`if c: return` then `self.f = launch`): fr.left makes it merge."""
        if not isinstance(s, (ast.Return, ast.Raise)):
            return False
        if fr.branch:
            fr.left = True
        return True

    def spend(self, n):
        """n steps of the budget (statements, calls, literal elements), and the CPU-time backstop."""
        self.steps += n
        if self.steps > MAX_STEPS or time.process_time() > self.deadline:
            raise Budget()

    def exec_stmt(self, s, fr, module=False):
        self.spend(1)
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.bind(s.name, self.make_function(s, fr), fr)
        elif isinstance(s, ast.ClassDef):
            self.bind(s.name, self.make_class(s, fr), fr)
        elif isinstance(s, ast.Return):
            fr.returns.append(self.eval(s.value, fr) if s.value is not None else scalar())
        elif isinstance(s, ast.Assign):
            v = self.eval(s.value, fr)
            for t in s.targets:
                self.assign(t, v, fr, s)
        elif isinstance(s, ast.AnnAssign):
            if s.value is not None:
                self.assign(s.target, self.eval(s.value, fr), fr, s)
        elif isinstance(s, ast.AugAssign):
            cur = self.eval(s.target, fr, store_check=False)
            rhs = self.eval(s.value, fr)
            if isinstance(s.op, (ast.Add, ast.BitOr)):
                self.extend_in_place(cur, rhs, s, fr)
            v = self.binop(cur, rhs, s.op, s, fr)
            self.assign(s.target, v, fr, s, aug=True)
        elif isinstance(s, (ast.For, ast.AsyncFor)):
            it = self.eval(s.iter, fr)
            elem = self.iterate(it, s.iter, fr)
            fr.branch += 1

            def one_pass():
                self.assign(s.target, elem, fr, s, local_only=True)
                self.exec_block(s.body, fr)
            self.fixpoint(one_pass, fr, s)
            self.exec_block(s.orelse, fr)
            fr.branch -= 1
        elif isinstance(s, ast.While):
            fr.branch += 1

            def one_pass():
                self.truth(self.eval(s.test, fr), s.test, fr)
                self.exec_block(s.body, fr)
            self.fixpoint(one_pass, fr, s)
            self.exec_block(s.orelse, fr)
            fr.branch -= 1
        elif isinstance(s, ast.If):
            self.exec_if(s, fr, module)
        elif isinstance(s, (ast.With, ast.AsyncWith)):
            for item in s.items:
                v = self.eval(item.context_expr, fr)
                for a in alts(v):
                    if a.kind not in ("ctxmgr", "unknown"):
                        self.add("UNRESOLVED_CALL", item.context_expr,
                                 f"{fr.fname} uses {ast.unparse(item.context_expr)} as a context manager "
                                 f"(only torch.no_grad(), torch.inference_mode() and torch.cuda.device() are allowed)")
                if item.optional_vars is not None:
                    self.assign(item.optional_vars, UNKNOWN, fr, s, local_only=True)
            return self.exec_block(s.body, fr)  # `with ...: return` ends the block around it too
        elif isinstance(s, (ast.Try, getattr(ast, "TryStar", ast.Try))):
            fr.branch += 1
            self.exec_block(s.body, fr)
            for h in s.handlers:
                if h.name:
                    self.bind(h.name, UNKNOWN, fr)
                self.exec_block(h.body, fr)
            self.exec_block(s.orelse, fr)
            self.exec_block(s.finalbody, fr)
            fr.branch -= 1
        elif isinstance(s, ast.Expr):
            self.eval(s.value, fr)
        elif isinstance(s, ast.Raise):
            if s.exc is not None:
                self.eval(s.exc, fr)
        elif isinstance(s, ast.Assert):
            self.truth(self.eval(s.test, fr), s.test, fr)
            if s.msg is not None:
                with self.may_not_run():  # evaluated only when the assert fails
                    self.eval(s.msg, fr)
        elif isinstance(s, ast.Delete):
            for t in s.targets:
                if isinstance(t, (ast.Attribute, ast.Subscript)):
                    self.write_target(t, UNKNOWN, fr, s)
                elif isinstance(t, ast.Name):
                    fr.env.pop(t.id, None)
        elif isinstance(s, ast.Import):
            for a in s.names:
                if a.asname:
                    self.bind(a.asname, V("lib", path=a.name), fr)
                else:
                    top = a.name.split(".")[0]
                    self.bind(top, V("lib", path=top), fr)
        elif isinstance(s, ast.ImportFrom):
            mod = s.module or ""
            for a in s.names:
                if a.name != "*":
                    self.bind(a.asname or a.name, V("lib", path=f"{mod}.{a.name}"), fr)
        # Pass, Break, Continue, Global, Nonlocal (whole-file pass), Match (whole-file pass)

    def fixpoint(self, one_pass, fr, node):
        """Runs a loop body until what its names hold stops changing (each pass can move a value one
        rebinding further: f0 = f1; f1 = f2; f2 = torch reaches f0 on the third). A loop that has not
        settled after MAX_LOOP_PASSES is refused: stage 0 cannot tell what it calls."""
        for _ in range(MAX_LOOP_PASSES):
            before = self.settled(fr)
            one_pass()
            if self.settled(fr) == before:
                return
        self.add("UNRESOLVED_VALUE", node, f"{fr.fname} has a loop whose values stage 0 cannot follow to a fixpoint "
                                           f"within {MAX_LOOP_PASSES} passes")

    def extend_in_place(self, cur, rhs, node, fr):
        """fns += [...] (and |=) changes the list (dict, set) itself: every name that holds it sees the new
        elements, not only the one rebound (self.fns = fns; fns += [torch.relu])."""
        for a in alts(cur):
            if a.kind != "container":
                continue
            self.effects += 1
            if fr.mode == "forward" and not any(a.owner is f for f in self.frames):
                self.add("CACHING", node, f"{fr.fname} mutates a container that outlives the call (+=)")
            added = [members(r) if r.kind == "container" else UNKNOWN for r in alts(rhs)]
            a.extra = list(a.extra or []) + [x for x in added if x is not None]

    def closure_key(self, env):
        """What the frames a function was made in hold (not the module's), as a memo key; more than
        4 x MAX_SIG_NODES values in all is a key equal to no other (the call is followed again)."""
        left, out = [MAX_SIG_NODES * 4], []
        f = env
        try:
            while f is not None and f is not self.modframe:
                for k, v in f.env.items():
                    out.append((id(f), str(k), self.sig_of(v, 0, left)))
                f = f.parent
        except OverflowError:
            return (object(),)
        self.spend(1)
        return tuple(out)

    def exec_if(self, s, fr, module, level=None):
        """level: the branch level this if's narrowed targets are bound at (an inner if that replaces only
        targets its outer if narrows binds them at the outer's level); default its own."""
        if module and is_main_guard(s.test):
            return  # not run in the candidate's process (its __name__ is not "__main__")
        fb = self.cpu_condition(s.test, fr) if fr.mode == "forward" else None
        self.truth(self.eval(s.test, fr), s.test, fr)
        # a name or self.attr that both branches assign at their own level holds afterwards what one of them
        # assigned, never what it held before (`self.bias = bias` then `if bias: self.bias = Parameter(...)
        # else: self.bias = None`): those assignments replace instead of merging (narrowed below)
        # not where a branch can leave the function first (return, raise): the old value then outlives the
        # call in an instance, a closure or a returned object
        leaves = any(isinstance(n, (ast.Return, ast.Raise, ast.Yield, ast.YieldFrom, ast.Await)) for n in ast.walk(s))
        slots = {} if leaves else self.slots(definitely_assigned(s.body) & definitely_assigned(s.orelse), fr, s)
        narrow = {k[0] for k in slots}
        entry = fr.branch if level is None else level
        fr.branch += 1
        after = {k: [] for k in slots}
        for body, is_fallback in ((s.body, fb is True), (s.orelse, fb is False)):
            for k, (get, put, old) in slots.items():
                put(old)  # each branch starts from the value before the if
            self.if_stack.append(s)
            self.fallback += is_fallback
            launches = len(self.launches)
            for st in body:
                if narrow and replaces_only(st, narrow):
                    self.exec_replacing(st, fr, entry)
                elif self.exec_stmt(st, fr):
                    break
                if self.ends_block(st, fr):
                    break
            if is_fallback:
                del self.launches[launches:]  # a launch only on the CPU path does not count
            self.fallback -= is_fallback
            self.if_stack.pop()
            for k, (get, put, old) in slots.items():
                after[k].append(get())
        fr.branch -= 1
        for k, (get, put, old) in slots.items():
            vals = after[k]
            # inside a loop, another branch or a call made from one the if may not run at all: then what was
            # there stays possible
            put(union(vals) if entry == 0 and not (self.cond_calls or self.cond_expr or fr.left)
                and all(v is not None for v in vals)
                else union([old] + vals))

    def exec_replacing(self, st, fr, level):
        """A statement of a narrowing if's branch that binds only narrowed targets: what it evaluates
        (right-hand side, an inner if's test: calls that may not happen) at the branch's level, the binding
        itself at `level`, replacing what the target held."""
        if isinstance(st, ast.If):
            return self.exec_if(st, fr, False, level=level)
        v = self.eval(st.value, fr)
        inner, fr.branch = fr.branch, level
        try:
            for t in (st.targets if isinstance(st, ast.Assign) else [st.target]):
                self.assign(t, v, fr, st)
        finally:
            fr.branch = inner

    def slots(self, targets, fr, node):
        """{(target, which): (get, put, value before)} for targets (see assigned_here) that are a name of this
        frame, or an attribute of the one instance that a local name (self) holds throughout the if: a name the
        if rebinds anywhere (obj = other; obj.f = ...), or one that may hold either of two objects, could make
        the write land on another object, whose old value would then be lost. get() is None where the target holds nothing; put(None) removes it."""
        out = {}
        rebound = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
        rebound |= {x for n in ast.walk(node) if isinstance(n, (ast.Global, ast.Nonlocal)) for x in n.names}
        for t in targets:
            if t[0] == "name":
                def get(n=t[1]):
                    return fr.env.get(n)

                def put(v, n=t[1]):
                    if v is None:
                        fr.env.pop(n, None)
                    else:
                        fr.env[n] = v
                out[(t, None)] = (get, put, get())
            else:
                if fr is self.modframe or t[1] in rebound:
                    continue
                holder = fr.env.get(t[1]) if t[1] in fr.env else None
                # one object for certain: with two (o = a if c else b) a write reaches only one of them
                if holder is None or len(alts(holder)) != 1:
                    continue
                for a in alts(holder):
                    if a.kind != "instance":
                        continue

                    def get(a=a, n=t[2]):
                        return a.attrs.get(n)

                    def put(v, a=a, n=t[2]):
                        if v is None:
                            a.attrs.pop(n, None)
                        else:
                            a.attrs[n] = v
                    out[(t, id(a))] = (get, put, get())
        return out

    def cpu_condition(self, test, fr):
        """True when test holds only without a GPU (`not x.is_cuda`, `x.device.type == "cpu"`,
        `not torch.cuda.is_available()`), False when it holds only with one, None otherwise. x must be a
        forward input (or a view of one): a tensor the answer made on the CPU itself would take the branch
        on the GPU too."""
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            inner = self.cpu_condition(test.operand, fr)
            return None if inner is None else not inner
        if isinstance(test, ast.BoolOp):
            parts = [self.cpu_condition(v, fr) for v in test.values]
            if isinstance(test.op, ast.Or) and all(p is True for p in parts):
                return True
            if isinstance(test.op, ast.And) and all(p is False for p in parts):
                return False
            return None
        if isinstance(test, ast.Attribute) and test.attr in ("is_cuda", "is_cpu") and self.is_input(test.value, fr):
            return test.attr == "is_cpu"
        if isinstance(test, ast.Call) and not test.args and isinstance(test.func, ast.Attribute):
            path = self.static_path(test.func, fr)
            if path == "torch.cuda.is_available":
                return False
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.NotEq)):
            left, right = test.left, test.comparators[0]
            if isinstance(right, ast.Attribute):
                left, right = right, left
            if isinstance(left, ast.Attribute) and left.attr == "type" and isinstance(left.value, ast.Attribute) \
                    and left.value.attr == "device" and self.is_input(left.value.value, fr) \
                    and isinstance(right, ast.Constant) and right.value in ("cpu", "cuda"):
                cpu = right.value == "cpu"
                return cpu if isinstance(test.ops[0], ast.Eq) else not cpu
        return None

    def is_input(self, e, fr):
        if not isinstance(e, ast.Name):
            return False
        v = self.lookup(e.id, fr, e)
        return all(a.kind == "tensor" and a.origin == "input" for a in alts(v)) and bool(alts(v))

    def static_path(self, e, fr):
        v = self.eval(e, fr, quiet=True)
        return v.path if v is not None and v.kind == "lib" else None

    # ---- assignment -----------------------------------------------------------------------------
    def assign(self, t, v, fr, node, aug=False, local_only=False):
        if isinstance(t, ast.Name):
            self.bind(t.id, v, fr)
        elif isinstance(t, (ast.Tuple, ast.List)):
            n = len(t.elts)
            for i, el in enumerate(t.elts):
                if isinstance(el, ast.Starred):
                    self.assign(el.value, V("container", items=[], extra=[self.unpack(v, None, n)], owner=fr.home),
                                fr, node)
                else:
                    self.assign(el, self.unpack(v, i, n), fr, node)
        elif isinstance(t, ast.Starred):
            self.assign(t.value, v, fr, node)
        elif isinstance(t, (ast.Attribute, ast.Subscript)):
            self.write_target(t, v, fr, node)

    def unpack(self, v, i, n):
        out = []
        for a in alts(v):
            if a.kind == "container" and a.items is not None and not a.extra and not a.pairs \
                    and len(a.items) == n and i is not None:
                out.append(a.items[i])
            elif a.kind == "container":
                out.append(keys(a))
            elif a.kind == "tensor":
                out.append(tensor(a.origin, True, a.dtsrc))
            elif a.kind == "scalar":
                out.append(scalar())
            elif a.kind == "meta":
                out.append(scalar())
            else:
                out.append(UNKNOWN)
        return union(out) or UNKNOWN

    def write_target(self, t, v, fr, node):
        base = self.eval(t.value, fr)
        if isinstance(t, ast.Attribute):
            for a in alts(base):
                if a.kind == "instance":
                    if fr.mode == "forward" and not any(a.owner is f for f in self.frames):
                        self.add("CACHING", node, f"{fr.fname} writes state that outlives the call ({ast.unparse(t)})")
                    elif self.class_prop(a.cls, t.attr):
                        self.add("UNRESOLVED_CALL", node, f"{fr.fname} writes {ast.unparse(t)}, a property of "
                                                          f"its class (its setter runs, not a plain write)")
                    else:  # o.f = ... where o may be either of two objects writes only one of them
                        self.set_attr(a, t.attr, v, fr, weak=len(alts(base)) > 1)
                elif a.kind == "ctx":
                    self.set_attr(a, t.attr, v, fr, weak=len(alts(base)) > 1)
                elif a.kind == "tensor":
                    if fr.mode == "forward":
                        self.torch_op(node, f"torch.Tensor.{t.attr}", f"sets the tensor attribute .{t.attr}", fr)
                elif a.kind == "lib":
                    self.patch(a.path + "." + t.attr, node, fr)
                elif a.kind in ("class", "func", "kernel", "ext", "layer", "extfn"):
                    self.add("DYNAMIC_CODE", node, f"{fr.fname} rebinds {ast.unparse(t)} on an object of the "
                                                   f"answer's own outside its definition")
                elif a.kind == "unknown" and not a.flagged:
                    self.add("UNRESOLVED_VALUE", node, f"{fr.fname} writes {ast.unparse(t)} on a value stage 0 "
                                                       f"cannot resolve")
        else:
            key = self.eval(t.slice, fr)
            self.effects += 1
            for a in alts(base):
                if a.kind == "container":
                    if fr.mode == "forward" and not any(a.owner is f for f in self.frames):
                        self.add("CACHING", node, f"{fr.fname} writes state that outlives the call ({ast.unparse(t)})")
                    elif a.pairs is not None and key is not None and key.kind == "scalar" or a.pairs is not None:
                        a.pairs.append((key, v))
                    else:
                        a.extra = (a.extra or []) + [v]
                elif a.kind == "tensor":
                    if fr.mode == "forward":
                        self.torch_op(node, "torch.Tensor.__setitem__", "writes into a tensor by indexing "
                                                                        "(index_put/copy in torch)", fr)
                elif a.kind == "lib":
                    self.patch(a.path, node, fr)
                elif a.kind == "meta":
                    pass
                elif a.kind == "unknown" and not a.flagged:
                    self.add("UNRESOLVED_VALUE", node, f"{fr.fname} writes {ast.unparse(t)} on a value stage 0 "
                                                       f"cannot resolve")

    # ---- functions and classes ------------------------------------------------------------------
    def make_function(self, s, fr, cls=None):
        defaults = [self.eval(d, fr) for d in s.args.defaults]
        kwdefaults = {a.arg: self.eval(d, fr) for a, d in zip(s.args.kwonlyargs, s.args.kw_defaults) if d is not None}
        v = V("func", node=s, env=fr, name=s.name, defaults=(defaults, kwdefaults), cls=cls)
        for d in reversed(s.decorator_list):
            v = self.apply_decorator(self.eval(d, fr), v, d, fr)
        return v

    def apply_decorator(self, dec, fn, node, fr):
        out = []
        for d in alts(dec):
            if d.kind == "lib" and d.path in ("builtins.staticmethod",):
                out.append(V("static", inner=fn))
            elif d.kind == "lib" and d.path == "builtins.classmethod":
                out.append(V("classm", inner=fn))
            elif d.kind == "lib" and d.path == "builtins.property":
                out.append(V("prop", inner=fn))
            elif d.kind == "lib" and d.path in ("triton.jit", "triton.runtime.jit.jit"):
                out.append(self.make_kernel(fn, [], node))
            elif d.kind == "decorator":
                if d.name == "identity":
                    out.append(fn)
                elif d.name == "jit":
                    out.append(self.make_kernel(fn, d.hooks, node))
                else:  # autotune / heuristics wrap a kernel
                    for k in alts(fn):
                        if k.kind == "kernel":
                            k.hooks.extend(d.hooks)
                            out.append(k)
                        else:
                            self.add("UNRESOLVED_CALL", node, f"triton.{d.name} applied to something that is not "
                                                              f"a @triton.jit kernel")
                            out.append(FLAGGED)
            elif d.kind == "ctxmgr" or (d.kind == "lib" and d.path in ("torch.no_grad", "torch.inference_mode")):
                out.append(fn)  # @torch.no_grad() / @torch.inference_mode()
            elif d.kind == "unknown" and d.flagged:
                out.append(fn)
            else:
                self.add("UNRESOLVED_CALL", node, f"decorator {ast.unparse(node)} is not part of stage 0's language "
                                                  f"(triton.jit/autotune/heuristics, staticmethod, classmethod, "
                                                  f"property, torch.no_grad)")
                out.append(fn)
        return union(out) or fn

    def make_kernel(self, fn, hooks, node):
        for f in alts(fn):
            if f.kind == "kernel":
                f.hooks.extend(hooks)
                return f
        fnode = next((f.node for f in alts(fn) if f.kind == "func"), None)
        k = V("kernel", node=fnode, name=getattr(fnode, "name", "kernel"), hooks=list(hooks))
        self.kernels.append(k)
        return k

    def make_class(self, s, fr):
        bases = [self.eval(b, fr) for b in s.bases]
        cls = V("class", node=s, name=s.name, attrs={}, args=bases, env=fr)
        cframe = Frame(cls.attrs, None, fr.mode, cls=cls, fname=s.name)
        cframe.home = fr.home
        cframe.classbody = True  # lookup() skips it from every frame made inside the body
        cframe.parent = fr if fr is not self.modframe else None
        for st in s.body:
            if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
                cls.attrs[st.name] = self.make_function(st, cframe, cls=cls)
            else:
                self.exec_stmt(st, cframe)
        for d in s.decorator_list:
            dv = self.eval(d, fr)
            if not all((a.kind == "decorator" and a.name == "identity") or
                       (a.kind == "lib" and a.path == "dataclasses.dataclass") for a in alts(dv)):
                self.add("UNRESOLVED_CALL", d, f"class decorator {ast.unparse(d)} is not part of stage 0's language")
            if any((a.kind == "decorator" and a.info == "dataclass") or
                   (a.kind == "lib" and a.path == "dataclasses.dataclass") for a in alts(dv)):
                # the generated __init__ (where the class defines none) binds the annotated fields in order
                cls.info = [st.target.id for st in s.body if isinstance(st, ast.AnnAssign)
                            and isinstance(st.target, ast.Name) and "ClassVar" not in ast.unparse(st.annotation)]
        return cls

    def mro(self, cls, seen=()):
        """Python's C3 linearization of an answer's class (class ModelNew(Mid, Fast) with Mid(Base) finds
        Base.act before Fast.act); where C3 fails (Python refuses such a class) the rest in base order."""
        bases = [a for b in cls.args or [] for a in alts(b) if a.kind == "class" and a is not cls and a not in seen]
        seqs = [self.mro(b, seen + (cls,)) for b in bases] + [bases]
        out = [cls]
        while True:
            seqs = [q for q in seqs if q]
            if not seqs:
                return out
            head = next((q[0] for q in seqs if not any(q[0] in t[1:] for t in seqs)), None)
            if head is None:
                return out + [c for q in seqs for c in q if c not in out]
            out.append(head)
            seqs = [q[1:] if q[0] is head else q for q in seqs]

    def lib_bases(self, cls):
        return {a.path for c in self.mro(cls) for b in (c.args or []) for a in alts(b) if a.kind == "lib"}

    def is_module_class(self, cls):
        return any(p in ("torch.nn.Module", "torch.nn.modules.module.Module") for p in self.lib_bases(cls))

    def is_autograd(self, cls):
        return "torch.autograd.Function" in self.lib_bases(cls)

    def class_attr(self, cls, name):
        for c in self.mro(cls):
            if name in c.attrs:
                return c.attrs[name], c
        return None, None

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
                out.append((a.kind,))
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
                         a.info == "dtype"))
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

    def call_func(self, fv, args, kwargs, node, fr, fill=None):
        """Runs a function of the answer with these argument values (fill: 'config' or 'input' makes
        every parameter a configuration scalar or an input tensor)."""
        fn = fv.node
        mode = fr.mode
        # what it may read besides its arguments: the names of every frame it was made in (a function's, a
        # comprehension's, a class body's; the module's are covered by self.effects) and its default values
        closure = (self.closure_key(fv.env), self.sig(union(list((fv.defaults or ([], {}))[0]) +
                                                              list((fv.defaults or ([], {}))[1].values()))))
        # self.effects: a write or an object made anywhere since (BOX.f = ...) may change what it reads
        key = (id(fn), mode, self.fallback > 0, fill, tuple(self.sig(a) for a in args),
               tuple(sorted((k, self.sig(v)) for k, v in kwargs.items())), closure, self.effects)
        if key in self.memo:
            return self.memo[key]
        if key in self.active:
            return UNKNOWN
        self.spend(50)
        if self.depth >= self.MAX_DEPTH:
            self.add("UNRESOLVED_CALL", node, f"the call chain into {fv.name} is deeper than {self.MAX_DEPTH}")
            return FLAGGED
        a = fn.args
        env = {}
        params = [p.arg for p in a.posonlyargs + a.args]
        defaults, kwdefaults = fv.defaults or ([], {})
        first_default = len(params) - len(defaults)
        # f(*xs) with xs of unknown length: from the star on, any parameter may get any of its elements or
        # what follows it (or keep its default); f(**d) with unknown keys: any parameter may get d's values
        star = next((i for i, v in enumerate(args) if v.kind == "star"), None)
        loose = union([v.inner if v.kind == "star" else v for v in args[star:]]) if star is not None else None
        dstar = union([members(c) if c.kind == "container" else UNKNOWN for c in alts(kwargs.get("**"))]) \
            if "**" in kwargs else None
        for i, p in enumerate(params):
            dflt = defaults[i - first_default] if i >= first_default else None
            if fill and not (i == 0 and p in ("self", "cls", "ctx") and args):
                # what the harness passes, or the default where it passes fewer (ModelNew(*init_inputs))
                env[p] = union([scalar() if fill == "config" else tensor("input", dtsrc=("param", p)), dflt])
            if star is not None and i >= star:
                env[p] = union([loose, kwargs.get(p), dstar, dflt]) or UNKNOWN
            elif i < len(args):
                env[p] = args[i]
            elif p in kwargs:
                env[p] = kwargs[p]
            elif dstar is not None:
                env[p] = union([dstar, dflt]) or UNKNOWN
            elif p not in env:
                env[p] = dflt if dflt is not None else UNKNOWN
        rest = args[len(params):] if star is None else [loose]
        if a.vararg:
            items = unstar(rest) if not fill else [scalar() if fill == "config" else tensor("input")]
            env[a.vararg.arg] = V("container", items=None, extra=items, owner=None, frame=True)
        for p in a.kwonlyargs:
            env[p.arg] = kwargs.get(p.arg, kwdefaults.get(p.arg, UNKNOWN))
            if dstar is not None and p.arg not in kwargs:
                env[p.arg] = union([dstar, kwdefaults.get(p.arg)])
            if fill and p.arg not in kwargs:  # KernelBook's [args, kwargs] init inputs may pass it, or not
                env[p.arg] = union([scalar() if fill == "config" else tensor("input", dtsrc=("param", p.arg)),
                                    kwdefaults.get(p.arg)])
        if a.kwarg:
            extra = [v for k, v in kwargs.items() if k not in params and k != "**"] + ([dstar] if dstar else [])
            env[a.kwarg.arg] = V("container", pairs=[], extra=extra, owner=None, frame=True)
        parent = fv.env if fv.env is not self.modframe else None
        sub = Frame(env, parent, mode, cls=fv.cls, fname=fv.name if fv.name != "<lambda>" else "a lambda")
        for v in env.values():
            if v.kind == "container" and v.frame is True:
                v.owner, v.frame = sub, None
        self.active.add(key)
        self.depth += 1
        self.frames.append(sub)
        saved_if = self.if_stack
        self.if_stack = list(saved_if)
        effects = self.effects
        # a call the caller may not make: what it writes to objects may not happen (its own names are its own)
        cond = 1 if fr.branch or fr.left or self.cond_expr else 0
        self.cond_calls += cond
        cond_expr, self.cond_expr = self.cond_expr, 0
        try:
            if isinstance(fn, ast.Lambda):
                result = self.eval(fn.body, sub)
            else:
                self.exec_block(fn.body, sub)
                result = union(sub.returns) or scalar()
        finally:
            self.cond_calls -= cond
            self.cond_expr = cond_expr
            self.if_stack = saved_if
            self.frames.pop()
            self.depth -= 1
            self.active.discard(key)
        if self.effects == effects:  # a call that wrote or made objects is followed again each time
            self.memo[key] = result
        return result

    def class_prop(self, cls, name):
        """True when the class (or a base) defines `name` as a property (a data descriptor)."""
        if cls is None:
            return False
        m, _ = self.class_attr(cls, name)
        return m is not None and any(f.kind == "prop" for f in alts(m))

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

    def set_attr(self, a, name, v, fr, weak=False):
        """An instance's or ctx's attribute `name` becomes v (with what it held, where the write may not
        happen or may land on another object: weak)."""
        self.effects += 1
        if name in a.attrs and (weak or self.merges(fr)):
            v = union([a.attrs[name], v])
        a.attrs[name] = v

    def instantiate(self, cls, args, kwargs, node, fr, fill=None):
        inst = V("instance", cls=cls, attrs={}, owner=fr.home if fr.mode == "forward" else None)
        self.effects += 1
        init, owner = self.class_attr(cls, "__init__")
        generated = next((c for c in self.mro(cls) if c.info is not None or "__init__" in c.attrs), None)
        if generated is not None and generated is not owner:
            self.dataclass_init(cls, inst, args, kwargs, fill)
        elif init is not None:
            for f in alts(init):
                if f.kind == "func":
                    self.call_func(f, [inst] + list(args), kwargs, node, fr, fill=fill)
        return inst

    def dataclass_init(self, cls, inst, args, kwargs, fill):
        """A dataclass's generated __init__: its fields (a base's first) get the arguments by position or name,
        else their defaults (the class attribute); an argument stage 0 cannot place may be any field's."""
        fields = []
        for c in reversed(self.mro(cls)):
            fields += [f for f in (c.info or []) if f not in fields]
        loose = union([a.inner for a in args if a.kind == "star"] +
                      [members(c) if c.kind == "container" else UNKNOWN for c in alts(kwargs.get("**"))])
        given = [a for a in args if a.kind != "star"]
        for i, name in enumerate(fields):
            dflt, _ = self.class_attr(cls, name)
            v = given[i] if i < len(given) else kwargs.get(name)
            if fill:
                v = union([scalar(), v])
            inst.attrs[name] = union([v, loose] if v is not None else [dflt, loose]) or UNKNOWN

    def call_instance(self, inst, args, kwargs, node, fr):
        cls = inst.cls
        for name in ("__call__",) + (("forward",) if self.is_module_class(cls) else ()):
            if name == "forward" and "forward" in (inst.attrs or {}):
                # nn.Module.__call__ runs self.forward: an instance attribute shadows the class's method
                return self.call_value(inst.attrs["forward"], args, kwargs, node, fr)
            m, _ = self.class_attr(cls, name)
            if m is not None:
                return self.call_value(self.bind_method(m, inst), args, kwargs, node, fr)
        return self.unresolved_call(node, f"an instance of {cls.name}", fr)

    def bind_method(self, m, inst):
        out = []
        for f in alts(m):
            if f.kind == "func":
                out.append(V("bound", inner=f, args=[inst]))
            elif f.kind == "static":
                out.append(f.inner)
            elif f.kind == "classm":
                out.append(V("bound", inner=f.inner, args=[inst.cls]))
            elif f.kind == "prop":
                out.append(f)
            else:
                out.append(f)
        return union(out)

    # ---- expressions ----------------------------------------------------------------------------
    def eval(self, e, fr, store_check=True, quiet=False):
        if quiet:
            saved = self.add
            self.add = lambda *a, **k: None
            try:
                return self.eval(e, fr)
            finally:
                self.add = saved
        m = getattr(self, "ev_" + type(e).__name__, None)
        if m is None:
            if isinstance(e, (ast.Yield, ast.YieldFrom, ast.Await)):
                return FLAGGED  # whole-file pass
            return UNKNOWN
        v = m(e, fr)
        return v if v is not None else UNKNOWN

    def ev_Constant(self, e, fr):
        return scalar(e.value)

    def ev_Name(self, e, fr):
        return self.lookup(e.id, fr, e)

    def ev_NamedExpr(self, e, fr):
        v = self.eval(e.value, fr)
        self.bind(e.target.id, v, fr)
        return v

    def ev_JoinedStr(self, e, fr):
        parts = []
        for p in e.values:
            if isinstance(p, ast.FormattedValue):
                v = self.eval(p.value, fr)
                if has_kind(v, ("tensor",)):
                    self.torch_op(p, "torch.Tensor.__format__", "formats a tensor's values into a string", fr)
                c = v.const if v.kind == "scalar" and isinstance(v.const, (str, int)) and p.format_spec is None \
                    and p.conversion == -1 else None
                parts.append(str(c) if c is not None else None)
            else:
                parts.append(p.value)
        ok = all(x is not None for x in parts) and sum(len(x) for x in parts) <= MAX_CONST
        return scalar("".join(parts)) if ok else scalar()

    def ev_Tuple(self, e, fr):
        v = self.make_seq(e.elts, fr)
        v.info = "tuple"  # t[idx] with idx a tuple indexes by its elements; with a list it gathers
        return v

    def ev_List(self, e, fr):
        return self.make_seq(e.elts, fr)

    ev_Set = ev_List

    def make_seq(self, elts, fr):
        self.spend(len(elts))
        items, extra = [], []
        for x in elts:
            if isinstance(x, ast.Starred):
                extra.append(self.iterate(self.eval(x.value, fr), x, fr))
            else:
                items.append(self.eval(x, fr))
        if extra:
            return V("container", items=None, extra=items + extra, owner=fr.home)
        return V("container", items=items, owner=fr.home)

    def ev_Dict(self, e, fr):
        self.spend(len(e.keys))
        pairs = []
        extra = []
        for k, v in zip(e.keys, e.values):
            if k is None:
                d = self.eval(v, fr)
                for a in alts(d):
                    if a.kind == "container" and a.pairs is not None:
                        pairs += list(a.pairs)
                        extra += list(a.extra or [])
                    else:
                        extra.append(members(a) if a.kind == "container" else UNKNOWN)
            else:
                pairs.append((self.eval(k, fr), self.eval(v, fr)))
        return V("container", pairs=pairs, extra=extra, owner=fr.home)

    def comprehension(self, e, fr, elts):
        sub = Frame({}, fr, fr.mode, cls=fr.cls, fname=fr.fname)
        sub.branch = 1
        sub.home = fr.home
        vals = []

        def one_pass():
            for i, g in enumerate(e.generators):
                # the first iterable is evaluated where the comprehension stands (a class body's names too)
                elem = self.iterate(self.eval(g.iter, fr if i == 0 else sub), g.iter, sub)
                self.assign(g.target, elem, sub, g)
                for c in g.ifs:
                    self.truth(self.eval(c, sub), c, sub)
            vals[:] = [union([old, self.eval(x, sub)]) for old, x in
                       zip(vals or [None] * len(elts), elts)]
        self.fixpoint(one_pass, sub, e)
        return [v or UNKNOWN for v in vals]

    def ev_ListComp(self, e, fr):
        vals = self.comprehension(e, fr, [e.elt])
        return V("container", items=None, extra=vals, owner=fr.home)

    ev_SetComp = ev_ListComp
    ev_GeneratorExp = ev_ListComp

    def ev_DictComp(self, e, fr):
        k, v = self.comprehension(e, fr, [e.key, e.value])
        return V("container", pairs=[(k, v)], extra=[], owner=fr.home)

    def ev_Lambda(self, e, fr):
        defaults = [self.eval(d, fr) for d in e.args.defaults]
        return V("func", node=e, env=fr, name="<lambda>", defaults=(defaults, {}), cls=fr.cls)

    def ev_IfExp(self, e, fr):
        fb = self.cpu_condition(e.test, fr) if fr.mode == "forward" else None
        self.truth(self.eval(e.test, fr), e.test, fr)
        out = []
        for body, is_fb in ((e.body, fb is True), (e.orelse, fb is False)):
            self.if_stack.append(e)
            self.fallback += is_fb
            n = len(self.launches)
            with self.may_not_run():  # only one of the two runs
                out.append(self.eval(body, fr))
            if is_fb:
                del self.launches[n:]
            self.fallback -= is_fb
            self.if_stack.pop()
        return union(out)

    def ev_BoolOp(self, e, fr):
        vals = [self.eval(e.values[0], fr)]
        with self.may_not_run():  # `flag and self.set_launch()`: the operands after the first
            vals += [self.eval(v, fr) for v in e.values[1:]]
        for v, node in zip(vals[:-1], e.values[:-1]):
            self.truth(v, node, fr)
        return union(vals)

    def ev_UnaryOp(self, e, fr):
        v = self.eval(e.operand, fr)
        if isinstance(e.op, ast.Not):
            self.truth(v, e.operand, fr)
            return scalar()
        if has_kind(v, ("tensor",)):
            self.torch_op(e, "torch.Tensor.__neg__", "tensor arithmetic on the host", fr)
            return tensor()
        self.check_scalar_operand(v, e, fr)
        if v.kind == "scalar" and isinstance(v.const, (int, float)) and isinstance(e.op, ast.USub):
            return scalar(-v.const)
        return scalar()

    def ev_BinOp(self, e, fr):
        return self.binop(self.eval(e.left, fr), self.eval(e.right, fr), e.op, e, fr)

    def binop(self, l, r, op, node, fr):
        if has_kind(l, ("tensor",)) or has_kind(r, ("tensor",)):
            if isinstance(op, ast.MatMult):
                self.torch_op(node, "torch.matmul", "computes a matrix product with @ on the host", fr)
            else:
                self.torch_op(node, f"torch.Tensor.__{type(op).__name__.lower()}__", "computes tensor arithmetic "
                                                                                      "on the host", fr)
            return tensor()
        self.check_scalar_operand(l, node, fr)
        self.check_scalar_operand(r, node, fr)
        if l.kind == "scalar" and r.kind == "scalar" and isinstance(op, ast.Add) \
                and isinstance(l.const, str) and isinstance(r.const, str):
            return scalar(l.const + r.const) if len(l.const) + len(r.const) <= MAX_CONST else scalar()
        if l.kind == "container" and r.kind == "container" and isinstance(op, ast.Add):
            return V("container", items=None, extra=[members(l), members(r)], owner=fr.home)
        if l.kind == "lib" or r.kind == "lib":  # typing unions (int | None) and the like
            return scalar()
        return scalar()

    def check_scalar_operand(self, v, node, fr):
        if fr.mode != "forward":
            return
        for a in alts(v):
            if a.kind == "unknown" and not a.flagged:
                self.add("UNRESOLVED_VALUE", node, f"{fr.fname} computes with a value stage 0 cannot resolve "
                                                   f"(it could be a tensor)")
                return
            if a.kind in ("func", "lib", "bound", "partial", "layer", "instance", "class", "kernel", "ext",
                          "extfn", "tmethod") and a.kind != "lib":
                self.add("UNRESOLVED_VALUE", node, f"{fr.fname} computes with a {a.kind} value")
                return

    def ev_Compare(self, e, fr):
        vals = [self.eval(e.left, fr), self.eval(e.comparators[0], fr)]
        with self.may_not_run():  # a < b < c: c only when a < b
            vals += [self.eval(c, fr) for c in e.comparators[1:]]
        if all(isinstance(o, (ast.Is, ast.IsNot)) for o in e.ops):
            return scalar()
        if any(has_kind(v, ("tensor",)) for v in vals):
            self.torch_op(e, "torch.Tensor.__eq__", "compares tensors on the host", fr)
            return tensor()
        for v in vals:
            if v.kind != "container":
                self.check_scalar_operand(v, e, fr)
        return scalar()

    def truth(self, v, node, fr):
        if any(a.kind == "tensor" for a in alts(v)):
            self.torch_op(node, "torch.Tensor.__bool__", "tests a tensor's value on the host", fr)

    def ev_Slice(self, e, fr):
        for p in (e.lower, e.upper, e.step):
            if p is not None:
                v = self.eval(p, fr)
                if has_kind(v, ("tensor",)):
                    self.torch_op(p, "torch.Tensor.__index__", "uses a tensor's value as a slice bound", fr)
        return scalar()

    def ev_Starred(self, e, fr):
        return self.iterate(self.eval(e.value, fr), e, fr)

    def ev_Attribute(self, e, fr):
        base = self.eval(e.value, fr)
        return union([self.attr(a, e.attr, e, fr) for a in alts(base)]) or UNKNOWN

    def ev_Subscript(self, e, fr):
        base = self.eval(e.value, fr)
        key = self.eval(e.slice, fr)
        if has_kind(base, ("tensor",)) and self.advanced_index(e.slice, key):
            self.torch_op(e, "torch.Tensor.__getitem__", "indexes a tensor with a sequence (a gather in torch)", fr)
        return union([self.subscript(a, key, e, fr) for a in alts(base)]) or UNKNOWN

    @staticmethod
    def advanced_index(sl, key):
        """t[[1, 0]], t[idx] with idx a list, t[range(n)], t[[0, 1], [1, 0]]: an index that is a sequence makes
        torch gather (advanced indexing), not a view. Only the elements of a literal tuple (t[0, 1:]) are
        indices of their own; a name holding a sequence is one index."""
        idx = [key]
        if isinstance(sl, ast.Tuple) or all(k.kind == "container" and k.info == "tuple" for k in alts(key)):
            idx = [v for k in alts(key) for v in (k.items if k.kind == "container" and k.items is not None else [k])]
        return any(a.kind == "container" for v in idx for a in alts(v))

    def ev_Call(self, e, fr):
        # super() and super().__init__ are resolved against the class being defined
        if isinstance(e.func, ast.Name) and e.func.id == "super" and fr.cls is not None and len(e.args) == 2 \
                and all(a.kind == "lib" and a.path == "builtins.super" for a in alts(self.lookup("super", fr, e))):
            # super(C, obj): the classes after C in the MRO of obj's class, whatever class this code is in
            start, selfv = self.eval(e.args[0], fr), self.eval(e.args[1], fr)
            if not alts(start) or any(c.kind != "class" for c in alts(start)):
                return self.unresolved_call(e, f"super({ast.unparse(e.args[0])}, ...) of something not a class", fr)
            return union([V("super", cls=c, args=[selfv]) for c in alts(start)])
        if isinstance(e.func, ast.Name) and e.func.id == "super" and fr.cls is not None and not e.args \
                and all(a.kind == "lib" and a.path == "builtins.super" for a in alts(self.lookup("super", fr, e))):
            selfv = None
            f = fr
            while f is not None and selfv is None:
                selfv = f.env.get("self")
                f = f.parent
            return V("super", cls=fr.cls, args=[selfv])
        fv = self.eval(e.func, fr)
        args, kwargs = [], {}
        for a in e.args:
            if isinstance(a, ast.Starred):
                v = self.eval(a.value, fr)
                if v.kind == "container" and v.items is not None and not v.extra and not v.pairs:
                    args += list(v.items)  # f(*(x, y)): the elements land on the parameters in order
                else:  # which parameters they land on is not known: see call_func
                    args.append(V("star", inner=self.iterate(v, a, fr)))
            else:
                args.append(self.eval(a, fr))
        for k in e.keywords:
            v = self.eval(k.value, fr)
            if k.arg is None:
                if v.kind == "container" and v.pairs is not None and not v.extra and \
                        all(kk.kind == "scalar" and isinstance(kk.const, str) for kk, _ in v.pairs):
                    for kk, vv in v.pairs:  # f(**{"q": g}): a keyword argument q=g
                        kwargs[kk.const] = union([kwargs.get(kk.const), vv])
                else:
                    kwargs["**"] = union([kwargs.get("**"), v])
            else:
                kwargs[k.arg] = v
        self.check_fn_values(unstar(args) + [v for k, v in kwargs.items() if k != "**"] +
                             [members(a) for a in alts(kwargs.get("**")) if a.kind == "container"], fv, e, fr)
        return union([self.call_value(f, args, kwargs, e, fr) for f in alts(fv)]) or UNKNOWN

    def check_fn_values(self, vals, callee, node, fr):
        """torch callables passed as values in forward (map(torch.exp, ...), reduce(torch.add, ...)) are
        torch doing the work wherever they end up."""
        if fr.mode != "forward" or any(c.kind == "lib" and c.path in ("builtins.getattr", "builtins.hasattr",
                                                                       "builtins.isinstance") for c in alts(callee)):
            return
        for v in vals:
            for a in alts(v):
                if a.kind == "lib" and a.path.startswith("torch.") and not is_torch_value(a.path):
                    self.torch_op(node, a.path, f"passes {a.path} as a function value", fr)
                elif a.kind == "tmethod":
                    self.torch_op(node, f"torch.Tensor.{a.name}", f"passes the tensor method .{a.name} as a value", fr)
                elif a.kind == "layer":
                    if not any(c.kind == "lib" and c.path == "builtins.isinstance" for c in alts(callee)):
                        pass

    # ---- attributes ---------------------------------------------------------------------------
    def attr(self, a, name, node, fr):
        k = a.kind
        if name == "__name__":
            return scalar()
        if name.startswith("__") and name.endswith("__") and name != "__init__":
            self.add("INTROSPECTION", node, f"{fr.fname} reaches {name}: dunder attributes walk into the interpreter")
            return FLAGGED
        if name in lang.INTROSPECTION_ATTRS:
            self.add("INTROSPECTION", node, f"{fr.fname} reaches .{name} (frames, code objects or closures)")
            return FLAGGED
        if name in lang.HOOK_WORDS:
            self.add("HOOKS", node, f"{fr.fname} reaches .{name}: hooks run code the forward does not show")
            return FLAGGED
        if k == "lib":
            return self.lib_attr(a.path, name, node, fr)
        if k == "tensor":
            if name in lang.TENSOR_ATTRS:
                return dtype_value() if name == "dtype" else scalar()
            if name in lang.TENSOR_VIEW_ATTRS:
                return tensor(a.origin, a.reordered or name != "data", a.dtsrc)
            if name.startswith("_"):
                self.add("FORBIDDEN_ATTR", node, f"{fr.fname} reaches the tensor internal .{name}")
                return FLAGGED
            return V("tmethod", name=name, origin=a.origin, reordered=a.reordered, dtsrc=a.dtsrc)
        if k == "instance":
            m, _ = self.class_attr(a.cls, name)
            own = a.attrs.get(name) if not self.class_prop(a.cls, name) else None  # a property comes first
            # a module's submodules and parameters live in _modules/_parameters, behind what its class defines
            # under the same name (self.f = Act() and a class attribute or method f): either may be found
            if own is not None and (m is None or not self.is_module_class(a.cls)):
                return own
            if m is not None:
                out = []
                for f in alts(self.bind_method(m, a)):
                    if f.kind == "prop":
                        out.append(self.call_value(V("bound", inner=f.inner, args=[a]), [], {}, node, fr))
                    else:
                        out.append(f)
                return union(out + ([own] if own is not None else []))
            if name == "training":
                return scalar()
            if self.is_module_class(a.cls) and name in lang.NN_MODULE_API:
                return V("modapi", name=name)
            return UNKNOWN
        if k == "class":
            if name == "apply" and self.is_autograd(a):
                return V("apply", cls=a)
            m, owner = self.class_attr(a, name)
            if m is not None:
                out = []
                for f in alts(m):
                    if f.kind == "static":
                        out.append(f.inner)
                    elif f.kind == "classm":
                        out.append(V("bound", inner=f.inner, args=[a]))
                    else:
                        out.append(f)
                return union(out)
            if name == "__init__":
                return V("noop")
            return UNKNOWN
        if k == "super":
            # the classes after the defining one in the MRO of the instance's class (B.act's super().act in a
            # ModelNew(B, C) reaches C.act), for each class the instance may be of
            selfv = a.args[0] if a.args else None
            out = []
            for inst in (alts(selfv) if selfv is not None else [None]):
                order = self.mro(inst.cls) if inst is not None and inst.kind == "instance" and inst.cls is not None \
                    else self.mro(a.cls)
                after = order[order.index(a.cls) + 1:] if a.cls in order else self.mro(a.cls)[1:]
                c = next((c for c in after if name in c.attrs), None)
                if c is not None:
                    m = c.attrs[name]
                    out.append(self.bind_method(m, inst) if inst is not None and inst.kind == "instance" else m)
                elif name == "__init__":
                    out.append(V("noop"))
                else:
                    out.append(UNKNOWN)
            return union(out) or UNKNOWN
        if k == "container":
            return V("cmethod", inner=a, name=name)
        if k == "scalar":
            if a.const is None and not name.startswith("__"):
                return RAISES
            if name in lang.SCALAR_METHODS:
                return V("smethod", name=name)
            return scalar()
        if k == "layer":
            if name.startswith("_"):
                self.add("FORBIDDEN_ATTR", node, f"{fr.fname} reaches the torch layer internal .{name}")
                return FLAGGED
            if name == "forward":
                return a
            if lang.layer_attr_is_tensor(name):
                return tensor("param")
            if a.items is not None and name.isdigit():
                return a
            if name in lang.PARAM_ITERATORS:
                return V("modapi", name=name)
            return scalar()
        if k == "ext":
            if a.info.functions is None or name in a.info.functions:
                return V("extfn", info=a.info, name=name)
            self.add("UNRESOLVED_CALL", node, f"{fr.fname} uses {name}, which the extension does not export "
                                              f"(functions={sorted(a.info.functions)})")
            return FLAGGED
        if k == "ctx":
            if name == "saved_tensors":
                return V("container", items=None, extra=[tensor()], owner=None)
            if name == "needs_input_grad":
                return scalar()
            if name in lang.CTX_METHODS:
                return V("ctxmethod", name=name)
            return a.attrs.get(name, UNKNOWN)
        if k == "meta":
            if name == "get":
                return V("metaget", kernel=a.kernel)
            if name in ("items", "values", "keys"):
                return V("metaget", kernel=a.kernel, name=name)
            return UNKNOWN
        if k in ("kernel", "launcher", "func", "bound", "extfn"):
            return UNKNOWN
        return a if a.flagged else UNKNOWN

    def lib_attr(self, path, name, node, fr):
        # the whole-file pass reports forbidden modules and private names on every path it can resolve;
        # values the light pass cannot follow (o = torch; o.os) are caught here
        new = f"{path}.{name}"
        root = path.split(".")[0]
        if name == "__init__":
            return V("noop")  # nn.Module.__init__(self)
        private = name.startswith("_") and not path.startswith("torch.ops.") and new not in lang.PRIVATE_OK
        if root in ("torch", "triton", "math", "typing", "functools", "itertools", "operator", "dataclasses",
                    "collections") and (name in lang.FORBIDDEN_ATTRS or private):
            self.add("FORBIDDEN_ATTR", node, f"{fr.fname} reaches {new}, which is outside stage 0's language")
            return FLAGGED
        if lang.calls_back(new):
            self.add("HOOKS", node, f"{fr.fname} reaches {new}: torch runs the answer's code through it")
            return FLAGGED
        if path in lang.LIB_FORBIDDEN and name in lang.LIB_FORBIDDEN[path]:
            self.add("FORBIDDEN_ATTR", node, f"{fr.fname} reaches {new}, which is outside stage 0's language")
            return FLAGGED
        if path == "torch.utils" and name not in lang.TORCH_UTILS_ALLOWED:
            self.add("FORBIDDEN_ATTR", node, f"{fr.fname} reaches {new}, which is outside stage 0's language")
            return FLAGGED
        return V("lib", path=new)

    # ---- subscripts ---------------------------------------------------------------------------
    def subscript(self, a, key, node, fr):
        k = a.kind
        if k == "kernel":
            return V("launcher", kernel=a, grid=key)
        if k == "tensor":
            if has_kind(key, ("tensor",)):
                self.torch_op(node, "torch.Tensor.__getitem__", "indexes a tensor with a tensor (a gather in "
                                                                "torch)", fr)
                return tensor()
            return tensor(a.origin, True, a.dtsrc)
        if k == "container":
            if a.items is not None and not a.extra and key.kind == "scalar" and isinstance(key.const, int) \
                    and not isinstance(key.const, bool) and -len(a.items) <= key.const < len(a.items):
                return a.items[key.const]
            if a.pairs is not None and not a.extra and key.kind == "scalar" and key.const is not None \
                    and key.const is not NOCONST:
                # a key whose value stage 0 does not know ({k: torch.relu} with k = "A".lower()) may be this one
                hits = [v for kk, v in a.pairs if not (kk.kind == "scalar" and kk.const is not NOCONST)
                        or kk.const == key.const]
                if hits:
                    return union(hits)
            if key.kind == "scalar" and isinstance(key.const, slice):
                return a
            v = elements(a)
            return v if v is not None else UNKNOWN
        if k == "scalar":
            return scalar()
        if k == "meta":
            return self.meta_item(a.kernel, key)
        if k == "lib":
            return a  # typing generics, tl.constexpr annotations
        if k == "layer":
            return a
        return a if a.kind == "unknown" else UNKNOWN

    def meta_item(self, kernel, key):
        if key.kind == "scalar" and isinstance(key.const, str):
            v = self.launch_args.get(id(kernel), {}).get(key.const)
            return v if v is not None else scalar()
        vals = list(self.launch_args.get(id(kernel), {}).values())
        return union(vals + [scalar()])

    # ---- iteration ----------------------------------------------------------------------------
    def iterate(self, v, node, fr):
        out = []
        for a in alts(v):
            if a.kind == "container":
                out.append(keys(a) or UNKNOWN)
            elif a.kind == "tensor":
                out.append(tensor(a.origin, True, a.dtsrc))
            elif a.kind in ("scalar", "meta"):
                out.append(scalar())
            elif a.kind == "layer" and a.items is not None:
                out.append(elements(a) or UNKNOWN)
            else:
                out.append(UNKNOWN if not a.flagged else FLAGGED)
        return union(out) or UNKNOWN

    # ---- calling values -----------------------------------------------------------------------
    def call_value(self, f, args, kwargs, node, fr):
        k = f.kind
        if k not in ("func", "bound", "static", "partial", "union", "class", "instance", "apply"):
            args = unstar(args)
        if k == "lib":
            return self.call_lib(f.path, args, kwargs, node, fr)
        if k == "func":
            return self.call_func(f, args, kwargs, node, fr)
        if k == "bound":
            return self.call_value(f.inner, list(f.args) + list(args), kwargs, node, fr)
        if k == "static":
            return self.call_value(f.inner, args, kwargs, node, fr)
        if k == "class":
            if self.is_autograd(f):
                return self.unresolved_call(node, f"the autograd.Function {f.name} directly (use .apply)", fr)
            return self.instantiate(f, args, kwargs, node, fr)
        if k == "instance":
            return self.call_instance(f, args, kwargs, node, fr)
        if k == "layer":
            if f.items is not None:  # nn.Sequential: each element on what the previous one returned
                cur = args
                for el in alts(elements(f)):
                    cur = [self.call_value(el, cur, {}, node, fr)]
                return cur[0] if cur else UNKNOWN
            self.torch_op(node, f.path, f"calls the torch module {f.path}", fr)
            return tensor()
        if k == "kernel":
            if fr.mode == "forward" or True:
                self.add("NO_LAUNCH", node, f"{fr.fname} calls kernel {f.name} like a function instead of "
                                            f"launching it with a grid")
            return FLAGGED
        if k == "launcher":
            return self.launch(f, args, kwargs, node, fr)
        if k == "extfn":
            self.check_launch_args(args, kwargs, node, fr, f"{f.name}")
            if fr.mode == "forward" and not self.fallback and f.info.has_kernel:
                self.launches.append(node)
            return tensor()
        if k == "partial":
            return self.call_value(f.inner, list(f.args) + list(args), {**f.kwargs, **kwargs}, node, fr)
        if k == "tmethod":
            return self.tensor_method(f, args, kwargs, node, fr)
        if k == "cmethod":
            return self.container_method(f, args, node, fr, kwargs)
        if k == "smethod":
            return scalar()
        if k == "apply":
            fwd, _ = self.class_attr(f.cls, "forward")
            ctx = V("ctx", attrs={})
            out = [self.call_value(self.unwrap_static(m), [ctx] + list(args), kwargs, node, fr) for m in alts(fwd)]
            setup, _ = self.class_attr(f.cls, "setup_context")
            if setup is not None:
                for m in alts(setup):
                    self.call_value(self.unwrap_static(m), [ctx, V("container", items=list(args), owner=None),
                                                            union(out)], {}, node, fr)
            return union(out) or UNKNOWN
        if k == "ctxmethod":
            return scalar()
        if k == "metaget":
            if f.name in ("items", "values", "keys"):
                return V("container", items=None, extra=[self.meta_item(f.kernel, scalar())], owner=None)
            return union([self.meta_item(f.kernel, args[0]) if args else scalar()] + list(args[1:]))
        if k == "noop":
            return scalar()
        if k == "decorator":
            if f.name == "identity":
                return args[0] if args else UNKNOWN
            return self.apply_decorator(f, args[0], node, fr) if args else UNKNOWN
        if k == "prop":
            return self.unresolved_call(node, "a property object", fr)
        if k == "modapi":
            if f.name in ("register_buffer", "register_parameter") and fr.mode == "setup" and len(args) >= 2:
                selfv = self.lookup("self", fr, node)
                name = args[0].const if args[0].kind == "scalar" else None
                for s in alts(selfv):
                    if s.kind == "instance" and isinstance(name, str):
                        self.set_attr(s, name, tensor("param"), fr)
                return scalar()
            if f.name in ("add_module", "register_module") and fr.mode == "setup" and len(args) >= 2:
                selfv = self.lookup("self", fr, node)
                name = args[0].const if args[0].kind == "scalar" else None
                for s in alts(selfv):
                    if s.kind == "instance" and isinstance(name, str):
                        self.set_attr(s, name, args[1], fr)
                return scalar()
            if f.name in lang.PARAM_ITERATORS:  # for p in self.conv.parameters(): p.requires_grad = False
                item = tensor("param")
                if f.name.startswith("named_"):
                    item = V("container", items=[scalar(), item], owner=fr.home)
                return V("container", items=None, extra=[item], owner=fr.home)
            return self.unresolved_call(node, f"nn.Module.{f.name}", fr)
        if k == "unknown" and f.flagged:
            return FLAGGED
        if k == "scalar" and f.const is None:
            return RAISES  # None(...): self.downsample(x) where downsample may be None
        if k == "union":
            return union([self.call_value(a, args, kwargs, node, fr) for a in f.alts])
        if k == "super":
            return self.unresolved_call(node, "super()", fr)
        return self.unresolved_call(node, ast.unparse(node.func) if isinstance(node, ast.Call) else "a value", fr)

    def unwrap_static(self, m):
        return m.inner if m.kind == "static" else m

    def launch(self, f, args, kwargs, node, fr):
        k = f.kernel
        self.check_launch_args(args, kwargs, node, fr, k.name)
        # the values the kernel's parameters get, for its grid function and hooks (META["BLOCK"], nargs["y"])
        names = [p.arg for p in (k.node.args.posonlyargs + k.node.args.args)] if k.node is not None else []
        rec = self.launch_args.setdefault(id(k), {})
        for i, v in enumerate(args):
            if i < len(names):
                rec[names[i]] = union([rec.get(names[i]), v])
        for n, v in kwargs.items():
            rec[n] = union([rec.get(n), v])
        grid = f.grid
        programs = []  # what each alternative grid is, after a grid function ran
        for g in alts(grid):
            if g.kind in ("func", "bound", "partial", "instance", "static"):
                programs += alts(self.call_value(g, [V("meta", kernel=k)], {}, node, fr))  # Triton calls it with META
                continue
            programs.append(g)
            if g.kind not in ("container", "scalar") and not g.flagged:
                self.add("UNRESOLVED_VALUE", node, f"{fr.fname} launches {k.name} with a {g.kind} as its grid")
            elif g.kind == "container":
                for el in alts(elements(g)):
                    if el.kind == "tensor":
                        self.torch_op(node, "torch.Tensor.__index__", "uses a tensor as a launch grid size", fr)
        if programs and all(empty_grid(g) for g in programs):
            return scalar()  # k[()], k[(0,)], k[lambda m: (0,)]: Triton runs no program, nothing is launched
        if fr.mode == "forward" and not self.fallback:
            self.launches.append(node)
            if k not in self.launched:
                self.launched.append(k)
        return scalar()

    def check_launch_args(self, args, kwargs, node, fr, name):
        vals = list(args) + list(kwargs.values())
        for v in list(vals):
            vals += [members(a) for a in alts(v) if a.kind == "container" and members(a) is not None][:8]
        for v in vals:
            for a in alts(v):
                if a.kind == "unknown" and not a.flagged:
                    self.add("UNRESOLVED_VALUE", node, f"{fr.fname} passes a value stage 0 cannot resolve to {name}")
                    continue
                if a.kind in ("func", "bound", "partial", "instance", "class", "layer", "ext", "extfn", "tmethod",
                              "cmethod", "apply", "launcher") or \
                        (a.kind == "lib" and not is_torch_value(a.path) and not a.path.startswith("triton.language")):
                    self.add("UNRESOLVED_VALUE", node, f"{fr.fname} passes a {a.kind} value"
                                                       f"{' ' + a.path if a.kind == 'lib' else ''} to {name}; "
                                                       f"kernels take tensors, numbers and dtypes")

    def callback(self, fn, args, node, fr):
        """A function of the answer that a library call runs (sorted/min/max/list.sort key=, the function of
        itertools.accumulate, a defaultdict's factory, a dataclass field's default_factory): followed as a call
        with these arguments, so what it does is judged like any other call."""
        out = []
        with self.may_not_run():  # sorted([], key=...) never calls it: what it writes may not happen
            for f in alts(fn):
                if f.kind == "scalar" and f.const is None:
                    continue  # key=None
                out.append(self.call_value(f, list(args), {}, node, fr))
        return union(out)

    def container_method(self, f, args, node, fr, kwargs=None):
        c, name = f.inner, f.name
        if kwargs and "key" in kwargs:
            self.callback(kwargs["key"], [members(c) or UNKNOWN], node, fr)
        if name in lang.CONTAINER_READ_METHODS:
            if name == "get":
                key = args[0] if args else scalar()
                hit = self.subscript(c, key, node, fr)
                return union([hit] + list(args[1:]))
            if name in ("items",):
                return V("container", items=None, extra=[V("container", items=[keys(c) or UNKNOWN,
                                                                               elements(c) or UNKNOWN],
                                                               owner=None)], owner=None)
            if name in ("values",):
                return V("container", items=None, extra=[elements(c) or UNKNOWN], owner=None)
            if name == "keys":
                return V("container", items=None, extra=[keys(c) or UNKNOWN], owner=None)
            if name == "copy":
                if c.pairs is not None:
                    return V("container", pairs=list(c.pairs), extra=list(c.extra or []), owner=fr.home)
                return V("container", items=None, extra=[elements(c) or UNKNOWN], owner=fr.home)
            return scalar()
        if name in lang.CONTAINER_WRITE_METHODS:
            self.effects += 1
            if fr.mode == "forward" and not any(c.owner is f for f in self.frames):
                self.add("CACHING", node, f"{fr.fname} mutates a container that outlives the call (.{name})")
            if c.items is not None and name in ("insert", "pop", "remove", "clear", "sort", "reverse"):
                # fns.reverse(), fns.pop(0), fns.remove(launch): what sits at each index is no longer known
                c.extra, c.items = list(c.extra or []) + list(c.items), None
            if name in ("append", "add", "insert", "extend", "update", "setdefault"):
                vals = list(args[-1:]) if name != "extend" and name != "update" else \
                    [members(a) if a.kind == "container" else UNKNOWN for a in args]
                if name == "setdefault" and len(args) > 1:
                    vals = [args[1]]
                c.extra = (c.extra or []) + [v for v in vals if v is not None]
            if name == "popitem":
                return V("container", items=[keys(c) or UNKNOWN, elements(c) or UNKNOWN], owner=fr.home)
            if name == "pop":
                return elements(c) or UNKNOWN
            return scalar()
        return self.unresolved_call(node, f".{name}() on a container", fr)

    def shape_only(self, node, fr):
        """Whether x.view(...)'s arguments are plainly a shape, not a dtype (x.view(d) with d a name could be either)."""
        if not isinstance(node, ast.Call) or node.keywords:
            return False
        if len(node.args) >= 2:
            return True

        def shape(e):
            return isinstance(e, (ast.Tuple, ast.List, ast.Starred, ast.BinOp)) or \
                isinstance(e, ast.Constant) and type(e.value) is int or \
                isinstance(e, ast.UnaryOp) and isinstance(e.operand, ast.Constant) or \
                isinstance(e, ast.Attribute) and e.attr == "shape" or \
                isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr == "size"
        if len(node.args) == 1 and isinstance(node.args[0], ast.Name):
            v = self.lookup(node.args[0].id, fr, node.args[0])
            return bool(alts(v)) and all(a.kind == "container" or a.kind == "scalar" and a.info != "dtype"
                                         for a in alts(v))
        return len(node.args) == 1 and shape(node.args[0])

    def same_type_cast(self, f, node, fr):
        """x.to(t.dtype), x.to(t.device), x.to(device=..., dtype=...) and x.type_as(t) where x is known to have t's
        dtype (and every forward tensor is on the GPU: moving one elsewhere is flagged): a no-op, not a copy.
        A move to t.device alone needs no dtype knowledge (x = self.conv(x); x.to(x.device))."""
        if not isinstance(node, ast.Call) or not node.args and not node.keywords:
            return False
        if any(k.arg not in ("dtype", "device") for k in node.keywords):
            return False  # copy=True, memory_format=...: a real copy

        def dtsrcs(e):
            if not isinstance(e, ast.Name):
                return None
            v = self.lookup(e.id, fr, e)
            return {a.dtsrc for a in alts(v)} if alts(v) and all(a.kind == "tensor" for a in alts(v)) else None

        for e in list(node.args) + [k.value for k in node.keywords]:
            if f.name == "type_as":
                if f.dtsrc is None or dtsrcs(e) != {f.dtsrc}:
                    return False
            elif not isinstance(e, ast.Attribute) or e.attr not in ("dtype", "device"):
                return False
            elif e.attr == "dtype" and (f.dtsrc is None or dtsrcs(e.value) != {f.dtsrc}):
                return False
            elif e.attr == "device" and dtsrcs(e.value) is None:
                return False
        return True

    def cuda_noop(self, node):
        """x.cuda() and x.cuda(non_blocking=...) compute nothing: .cuda() of a GPU tensor (an input, a view of
        one, what a kernel wrote, a parameter the harness moved) returns it unchanged, whatever its strides,
        and a host tensor forward holds was made from numbers (torch.zeros(n), set-up values): moving it is an
        allocation. Reading an input on the host (.cpu(), .tolist()) is refused where it happens. A device
        argument (x.cuda(1)) or memory_format= may copy."""
        return isinstance(node, ast.Call) and not node.args and \
            all(k.arg == "non_blocking" and isinstance(k.value, ast.Constant) for k in node.keywords)

    @staticmethod
    def dtype_cast(name, args, kwargs, node):
        """x.float(), x.half(), x.type_as(t), x.to(torch.float16), x.to(t.dtype), x.to(t), x.to(t.device, dtype=d):
        a change of dtype and nothing else (no copy=, memory_format=, or move to a device other than a tensor's)."""
        if not isinstance(node, ast.Call) or any(isinstance(a, ast.Starred) for a in node.args):
            return False
        if name not in ("to", "type_as"):
            return not node.args and not node.keywords
        if name == "type_as":
            return len(args) == 1 and not node.keywords and all(a.kind == "tensor" for a in alts(args[0]))

        def dtype(v):
            return bool(alts(v)) and all(a.kind == "scalar" and a.info == "dtype" or a.kind == "tensor" or
                                         a.kind == "lib" and a.path.startswith("torch.") and
                                         a.path[6:] in lang.TORCH_DTYPES for a in alts(v))

        def device(e):
            return isinstance(e, ast.Attribute) and e.attr == "device"
        kw = {k.arg: k.value for k in node.keywords}
        if set(kw) - {"dtype", "device", "non_blocking"} or "device" in kw and not device(kw["device"]):
            return False
        found = "dtype" in kw and dtype(kwargs.get("dtype"))
        if "dtype" in kw and not found:
            return False
        for e, v in zip(node.args, args):
            if dtype(v):
                found = True
            elif not device(e):
                return False
        return found

    def tensor_method(self, f, args, kwargs, node, fr):
        name = f.name
        if name in lang.TENSOR_META_METHODS:
            return scalar()
        if name in ("to", "type_as") and self.same_type_cast(f, node, fr):
            return tensor(f.origin, f.reordered, f.dtsrc)
        if name == "cuda" and self.cuda_noop(node):
            return tensor(f.origin, f.reordered, f.dtsrc)
        if name in lang.TENSOR_CAST_METHODS and self.policy == "kernelbench" and fr.mode == "forward" \
                and not self.fallback and not f.reordered and self.dtype_cast(name, args, kwargs, node):
            # KernelBench counts such answers correct: torch's conversion kernel stays, noted with its op; without
            # a launch of the answer's own it is torch compute (static.check)
            self.add("HOST_CAST_ALLOWED", node, f"{fr.fname} casts a tensor's dtype on the host (.{name}()), torch's "
                                                f"conversion kernel (policy kernelbench)", op=f"torch.Tensor.{name}",
                     fatal=False)
            return tensor()
        if name in lang.TENSOR_COPY_METHODS or name in lang.TENSOR_LAYOUT_METHODS and f.reordered:
            self.torch_op(node, f"torch.Tensor.{name}", f"copies or casts a tensor in torch (.{name}())", fr)
            # a device move makes a tensor the answer chose, not the input (x.cpu().is_cuda is False on the GPU)
            return tensor("other" if name in ("to", "cpu", "cuda") else f.origin)
        if name in lang.TENSOR_VIEW_METHODS:
            dtsrc = f.dtsrc if name != "view" or self.shape_only(node, fr) else None  # x.view(torch.int32) bitcasts
            return tensor(f.origin, f.reordered or name in lang.TENSOR_REORDER_METHODS, dtsrc)
        if name in lang.TENSOR_SPLIT_METHODS:
            return V("container", items=None, extra=[tensor(f.origin, True, f.dtsrc)], owner=fr.home)
        if name in lang.TENSOR_ALLOC_METHODS:
            return tensor("alloc")
        if name in lang.TENSOR_FILL_METHODS:
            return tensor(f.origin, f.reordered, f.dtsrc)
        if name in lang.HOST_READ_METHODS:
            if fr.mode == "forward":
                self.torch_op(node, f"torch.Tensor.{name}", f"reads a tensor's values on the host (.{name}())", fr)
            return scalar() if name == "item" else UNKNOWN
        if name in ("untyped_storage", "storage", "set_", "share_memory_", "pin_memory", "record_stream",
                    "backward", "as_subclass", "numpy", "tofile", "apply_", "map_", "map2_", "_typed_storage"):
            self.add("TORCH_OP_IN_FORWARD" if fr.mode == "forward" else "FORBIDDEN_CALL", node,
                     f"{fr.fname} calls the tensor method .{name}()", op=f"torch.Tensor.{name}")
            return FLAGGED
        if fr.mode == "setup":
            return tensor()
        self.torch_op(node, f"torch.Tensor.{name}", f"calls the tensor method .{name}()", fr)
        return tensor()

    # ---- library calls ------------------------------------------------------------------------
    def scalar_args(self, path, args, kwargs, node, fr):
        vals = list(args) + list(kwargs.values())
        if any(has_kind(v, ("tensor",)) for v in vals):
            self.torch_op(node, path, f"applies {path.replace('builtins.', '')}() to a tensor", fr)
            return False
        if fr.mode == "forward":
            for v in vals:
                if has_kind(v, ("unknown",)) and not all(a.flagged for a in alts(v) if a.kind == "unknown"):
                    self.add("UNRESOLVED_VALUE", node, f"{fr.fname} passes a value stage 0 cannot resolve to "
                                                       f"{path.replace('builtins.', '')}() (it could be a tensor)")
                    return False
        return True

    def call_lib(self, path, args, kwargs, node, fr):
        parts = path.split(".")
        root, last = parts[0], parts[-1]
        if root == "builtins":
            if len(parts) != 2:
                return self.unresolved_call(node, path.replace("builtins.", ""), fr)
            return self.call_builtin(last, args, kwargs, node, fr)
        if root == "torch":
            return self.call_torch(path, parts, args, kwargs, node, fr)
        if root == "triton":
            return self.call_triton(path, parts, args, kwargs, node, fr)
        if root == "math":
            self.scalar_args(path, args, kwargs, node, fr)
            return scalar()
        if root == "operator":
            if last in lang.OPERATOR_OK and len(parts) == 2:
                self.scalar_args(path, args, kwargs, node, fr)
                return scalar()
            self.add("DYNAMIC_CODE", node, f"{fr.fname} calls {path} (a computed attribute or method access)")
            return FLAGGED
        if root == "functools" and len(parts) == 2:
            if last == "partial" and args:
                return V("partial", inner=args[0], args=list(args[1:]), kwargs=kwargs)
            if last == "reduce" and len(args) >= 2:
                fn, it = args[0], args[1]
                if has_kind(it, ("tensor",)) or any(a.kind == "lib" and a.path.startswith("torch.") for a in alts(fn)):
                    self.torch_op(node, path, "reduces over tensors with functools.reduce", fr)
                    return tensor()
                elem = self.iterate(it, node, fr)
                self.callback(fn, [elem, elem], node, fr)  # reduce over nothing never calls it
                return scalar()
            if last == "wraps":
                return V("decorator", name="identity", hooks=[])
            if last in lang.FUNCTOOLS_CACHES:
                return V("decorator", name="identity", hooks=[])  # CACHING: whole-file pass
        if root == "itertools" and len(parts) == 2 and last in lang.ITERTOOLS_OK:
            if any(has_kind(v, ("tensor",)) for v in args):
                self.torch_op(node, path, f"applies {path}() to tensors", fr)
            made = []
            if last == "accumulate":
                fn = kwargs.get("func", args[1] if len(args) > 1 else None)
                if fn is not None:
                    elem = union([self.iterate(args[0], node, fr) if args else None, kwargs.get("initial")])
                    res = self.callback(fn, [elem or UNKNOWN, elem or UNKNOWN], node, fr)
                    made = [res] if res is not None else []
            return V("container", items=None,
                     extra=[V("container", items=None, extra=[self.iterate(a, node, fr) for a in args], owner=None)]
                     + made, owner=fr.home)
        if root == "typing" and len(parts) == 2 and last == "cast" and len(args) == 2:
            return args[1]  # typing.get_type_hints and friends evaluate strings: not allowed
        if root == "dataclasses" and last in lang.DATACLASSES_OK:
            if last == "dataclass":
                return V("decorator", name="identity", hooks=[], info="dataclass") if not args else args[0]
            made = self.callback(kwargs["default_factory"], [], node, fr) if "default_factory" in kwargs else None
            return union([kwargs.get("default"), made, scalar()])
        if root == "collections" and last in ("OrderedDict", "defaultdict"):
            fn = args[0] if last == "defaultdict" and args else None
            made = self.callback(fn, [], node, fr) if fn is not None else None  # what a missing key yields
            d = self.call_builtin("dict", args[1:] if last == "defaultdict" else args, kwargs, node, fr)
            if made is not None:
                d.extra = list(d.extra or []) + [made]
            return d
        if root in lang.FORBIDDEN_ATTRS or root in lang.THREAD_MODULES:
            self.add("FORBIDDEN_CALL", node, f"{fr.fname} calls {path}")
            return FLAGGED
        return self.unresolved_call(node, path, fr)

    def call_builtin(self, name, args, kwargs, node, fr):
        if name in lang.DYNAMIC_BUILTINS:
            self.add("DYNAMIC_CODE", node, f"{fr.fname} calls {name}()")
            return FLAGGED
        if name in lang.INTROSPECTION_BUILTINS:
            self.add("INTROSPECTION", node, f"{fr.fname} calls {name}()")
            return FLAGGED
        if name in lang.EXCEPTIONS:
            return scalar()
        if name == "object":
            return scalar()
        if name in ("staticmethod", "classmethod", "property") and args:
            return V({"staticmethod": "static", "classmethod": "classm", "property": "prop"}[name], inner=args[0])
        if name == "setattr" and len(args) == 3:
            obj, key, val = args
            for o in alts(obj):
                if o.kind == "lib":
                    self.patch(o.path, node, fr)
                elif o.kind == "instance" and fr.mode == "setup":
                    if key.kind == "scalar" and isinstance(key.const, str):
                        self.set_attr(o, key.const, val, fr, weak=len(alts(obj)) > 1)
                    else:  # any attribute, forward included
                        self.add("DYNAMIC_CODE", node, f"{fr.fname} calls setattr with a name stage 0 cannot know")
                        return FLAGGED
                elif o.kind == "instance":
                    self.add("CACHING", node, f"{fr.fname} writes state that outlives the call (setattr)")
            return scalar()
        if name == "print" and "file" in kwargs:  # print(file=obj) calls obj.write
            return self.unresolved_call(node, "print(file=...)", fr)
        if name in lang.SCALAR_BUILTINS:
            if name in ("sorted", "min", "max") and "key" in kwargs:
                elem = self.iterate(args[0], node, fr) if len(args) == 1 else union(args)
                self.callback(kwargs["key"], [elem or UNKNOWN], node, fr)
                kwargs = {k: v for k, v in kwargs.items() if k != "key"}
            ok = self.scalar_args(f"builtins.{name}", args, kwargs, node, fr)
            if name in ("range", "sorted"):
                return V("container", items=None, extra=[scalar()] if name == "range" else
                         [self.iterate(args[0], node, fr) if args else UNKNOWN], owner=fr.home)
            if name in ("min", "max") and len(args) == 1 and ok:
                return self.iterate(args[0], node, fr)
            return scalar()
        if name == "hasattr" and len(args) == 2:  # it reads the attribute: a property's getter runs
            key = args[1]
            if key.kind == "scalar" and isinstance(key.const, str):
                for o in alts(args[0]):
                    self.attr(o, key.const, node, fr)
                return scalar()
            self.add("DYNAMIC_CODE", node, f"{fr.fname} calls hasattr() with a computed attribute name")
            return FLAGGED
        if name == "len" or name in ("isinstance", "hasattr", "callable"):
            return scalar()
        if name in ("tuple", "list", "set", "reversed"):
            if name == "reversed" and args and any(a.kind == "tensor" for a in alts(args[0])):
                self.torch_op(node, "torch.flip", "reverses a tensor with reversed() (Tensor.__reversed__ is a flip)",
                              fr)
            if not args:
                return V("container", items=[], owner=fr.home)
            a0 = args[0]
            if a0.kind == "container" and a0.items is not None and not a0.extra and name != "reversed":
                return V("container", items=list(a0.items), owner=fr.home)
            return V("container", items=None, extra=[self.iterate(a0, node, fr)], owner=fr.home)
        if name == "dict":
            pairs, extra = [(scalar(k), v) for k, v in kwargs.items() if k not in ("*", "**")], []
            for a in args:
                for c in alts(a):
                    if c.kind == "container" and c.pairs is not None:
                        pairs += list(c.pairs)
                        extra += list(c.extra or [])
                    else:  # an iterable of (key, value) pairs
                        el = self.iterate(c, node, fr)
                        pairs.append((self.unpack(el, 0, 2), self.unpack(el, 1, 2)))
            return V("container", pairs=pairs, extra=extra, owner=fr.home)
        if name == "enumerate" and args:
            return V("container", items=None, extra=[V("container", items=[scalar(), self.iterate(args[0], node, fr)],
                                                         owner=None)], owner=fr.home)
        if name == "zip":
            return V("container", items=None, extra=[V("container", items=[self.iterate(a, node, fr) for a in args],
                                                         owner=None)], owner=fr.home)
        if name == "getattr" and len(args) >= 2:
            key = args[1]
            if key.kind == "scalar" and isinstance(key.const, str):
                out = [self.attr(o, key.const, node, fr) for o in alts(args[0])]
                return union(out + list(args[2:]))
            self.add("DYNAMIC_CODE", node, f"{fr.fname} calls getattr() with a computed attribute name")
            return FLAGGED
        if name == "slice":
            return scalar()  # not None: a slice has attributes (.start, .indices())
        if name in lang.FORBIDDEN_BUILTINS:
            self.add("FORBIDDEN_CALL", node, f"{fr.fname} calls {name}(), which is not part of stage 0's language")
            return FLAGGED
        return self.unresolved_call(node, f"{name}()", fr)

    def call_torch(self, path, parts, args, kwargs, node, fr):
        last = parts[-1]
        setup = fr.mode == "setup"
        if path in ("torch.nn.Parameter", "torch.nn.parameter.Parameter", "torch.nn.parameter.Buffer",
                    "torch.nn.Buffer"):
            return tensor("param")
        if path.startswith("torch.utils.cpp_extension."):
            if last == "load_inline":
                info = cppext.check_load_inline(node, args, kwargs, self.add, self.policy)
                ext = V("ext", info=info)
                self.exts.append(ext)
                return ext
            self.add("FORBIDDEN_CALL", node, f"{fr.fname} calls {path}: extensions are built from inline sources "
                                             f"only (load_inline)")
            return FLAGGED
        if last in TORCH_FORBIDDEN_CALLS or last.startswith("set_") or last.startswith("manual_seed"):
            self.add("FORBIDDEN_CALL", node, f"{fr.fname} calls {path}")
            return FLAGGED
        if last in lang.STREAM_WORDS:
            self.add("STREAMS", node, f"{fr.fname} uses {path}")
            return FLAGGED
        if last in lang.GRAPH_WORDS:
            self.add("CUDA_GRAPHS", node, f"{fr.fname} uses {path}")
            return FLAGGED
        if fr.mode == "setup" and setup_forbidden(parts):
            self.add("FORBIDDEN_CALL", node, f"{fr.fname} calls {path}: files, storages, generators and torch "
                                             f"classes are not part of stage 0's set-up language")
            return FLAGGED
        if len(parts) >= 2 and parts[1] == "cuda":
            if len(parts) == 3 and last in lang.TORCH_CUDA_FORWARD:
                return V("ctxmgr") if lang.TORCH_CUDA_FORWARD[last] == "ctx" else scalar()
            return self.unresolved_call(node, path, fr)
        if path == "torch.nn.init._calculate_fan_in_and_fan_out":
            return V("container", items=[scalar(), scalar()], owner=fr.home)  # (fan_in, fan_out): shape only
        if path.startswith("torch.nn.init."):
            if setup:
                return tensor("param")
            self.torch_op(node, path, f"calls {path}", fr)
            return tensor()
        if len(parts) == 3 and parts[1] == "nn" and last[:1].isupper():
            if last in ("Sequential",):
                return V("layer", path=path, items=list(args), owner=None)
            if last in ("ModuleList", "ParameterList"):
                return V("container", items=None, extra=[self.iterate(a, node, fr) for a in args], owner=None)
            if last in ("ModuleDict", "ParameterDict"):
                c = args[0] if args else None
                if c is not None and c.kind == "container":
                    return V("container", pairs=list(c.pairs or []), extra=list(c.extra or []), owner=None)
                return V("container", pairs=[], extra=[], owner=None)
            if last in ("Module",):
                return V("instance", cls=V("class", name="Module", attrs={}, args=[]), attrs={})
            return V("layer", path=path)
        if len(parts) == 2 and last in ("tensor", "as_tensor") and not setup:
            if not any(has_kind(v, ("tensor", "unknown")) for v in list(args) + list(kwargs.values())):
                return tensor("alloc")  # constants from python numbers
        if len(parts) == 2 and last in lang.TORCH_FORWARD:
            kind = lang.TORCH_FORWARD[last]
            if kind == "tensor":
                src = args[0] if args and last.endswith("_like") and set(kwargs) <= {"device", "requires_grad",
                                                                                    "memory_format", "layout"} else None
                srcs = {a.dtsrc for a in alts(src)} if src is not None else {None}
                return tensor("alloc", dtsrc=srcs.pop() if len(srcs) == 1 and has_kind(src, ("tensor",)) else None)
            return V("ctxmgr") if kind == "ctx" else dtype_value() if last in ("get_default_dtype", "promote_types") \
                else scalar()
        if path in ("torch.autograd.Function",):
            return self.unresolved_call(node, path, fr)
        if setup:
            return tensor()  # set-up may compute: it cannot see an input
        if len(parts) == 2 and last in lang.TORCH_CONSTANTS:
            return self.unresolved_call(node, path, fr)
        self.torch_op(node, path, f"calls {path}", fr)
        return tensor()

    def call_triton(self, path, parts, args, kwargs, node, fr):
        last = parts[-1]
        if len(parts) == 2 and last in lang.TRITON_HOST:
            self.scalar_args(path, args, kwargs, node, fr)
            return scalar()
        if path == "triton.jit":
            for k in kwargs:
                if k not in lang.JIT_KWARGS:
                    self.add("UNRESOLVED_CALL", node, f"triton.jit does not take {k}= in stage 0's language")
            hooks = collect_funcs(list(kwargs.values()))
            if args:
                return self.make_kernel(args[0], hooks, node)
            return V("decorator", name="jit", hooks=hooks)
        if path == "triton.autotune":
            for k, v in kwargs.items():
                if k not in lang.AUTOTUNE_KWARGS:
                    self.add("UNRESOLVED_CALL", node, f"triton.autotune does not take {k}= in stage 0's language")
                elif k == "use_cuda_graph" and not (v.kind == "scalar" and v.const is False):
                    self.add("CUDA_GRAPHS", node, "triton.autotune(use_cuda_graph=...) replays CUDA graphs")
            return V("decorator", name="autotune", hooks=collect_funcs(list(args) + list(kwargs.values())))
        if path == "triton.heuristics":
            return V("decorator", name="heuristics", hooks=collect_funcs(list(args) + list(kwargs.values())))
        if path == "triton.Config":
            for k in kwargs:
                if k not in lang.CONFIG_KWARGS:
                    self.add("UNRESOLVED_CALL", node, f"triton.Config does not take {k}= in stage 0's language")
            return V("container", items=None, extra=[], owner=None, hooks=collect_funcs(list(kwargs.values())))
        if path.startswith("triton.language.") and fr.mode == "setup":
            return scalar()  # tl.constexpr(128) and friends at module level
        return self.unresolved_call(node, path, fr)

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


TORCH_FORBIDDEN_CALLS = {"manual_seed", "seed", "initial_seed", "set_rng_state", "get_rng_state", "load", "save",
                         "compile", "use_deterministic_algorithms", "fork_rng", "hub", "load_library"}


def unstar(args):
    """The argument values of a call, a star's elements in its place."""
    return [a.inner if a.kind == "star" else a for a in args]


def empty_grid(g):
    """A grid of no programs: an empty tuple, or one with a size stage 0 knows is 0 (or less)."""
    def nothing(v):
        return v.kind == "scalar" and isinstance(v.const, (int, float)) and v.const <= 0
    if g.kind == "container":
        return g.items is not None and not g.extra and (not g.items or any(
            alts(i) and all(nothing(a) for a in alts(i)) for i in g.items))
    return nothing(g)


def is_torch_value(path):
    parts = path.split(".")
    if parts[0] == "torch" and len(parts) == 2 and parts[1] in lang.TORCH_CONSTANTS:
        return True
    if parts[0] == "triton" and len(parts) >= 2 and parts[1] == "language":
        return True
    return path in ("torch.Tensor", "torch.nn.Parameter", "torch.nn.Module", "torch.autograd.Function")


def collect_funcs(vals, depth=0):
    out = []
    for v in vals:
        for a in alts(v):
            if a.kind in ("func", "bound", "partial", "instance", "static", "layer") or \
                    (a.kind == "lib" and not is_torch_value(a.path)):
                out.append(a)  # Triton calls it: it is code the launch reaches
            elif a.kind == "container" and depth < 4:
                out += collect_funcs([elements(a)] if elements(a) is not None else [], depth + 1)
                if a.hooks:
                    out += a.hooks
    return out


def replaces_only(st, narrow):
    """True when every target st binds is narrowed (so binding it at the if's own level loses nothing else),
    and st binds nothing on the way (no walrus)."""
    if any(isinstance(n, ast.NamedExpr) for n in ast.walk(st)):
        return False
    if isinstance(st, ast.Assign):
        return all(isinstance(t, (ast.Name, ast.Attribute)) for t in st.targets) and assigned_here(st) <= narrow \
            and len(assigned_here(st)) == len(st.targets)
    if isinstance(st, ast.AnnAssign):
        return bool(assigned_here(st)) and assigned_here(st) <= narrow
    if isinstance(st, ast.If):  # an inner if/else that narrows only targets narrowed here too
        inner = assigned_here(st)
        return bool(inner) and inner <= narrow
    return False


def assigned_here(st):
    """The targets an Assign or AnnAssign statement itself binds: ("name", n) or ("attr", base name, attr)
    for `self.x = ...`; other targets (subscripts, tuples) are not narrowed."""
    if isinstance(st, ast.Assign):
        targets = st.targets
    elif isinstance(st, ast.AnnAssign) and st.value is not None:
        targets = [st.target]
    elif isinstance(st, ast.If):
        return definitely_assigned(st.body) & definitely_assigned(st.orelse)
    else:
        return set()
    out = set()
    for t in targets:
        if isinstance(t, ast.Name):
            out.add(("name", t.id))
        elif isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name):
            out.add(("attr", t.value.id, t.attr))
    return out


def definitely_assigned(stmts):
    """The targets that a block assigns on every way through it to its end (its own Assign statements, and
    an if/else that assigns them in both branches): see Resolver.exec_if."""
    out = set()
    for st in stmts:
        out |= assigned_here(st)
    return out


def is_main_guard(test):
    return isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "__name__" \
        and len(test.comparators) == 1 and isinstance(test.comparators[0], ast.Constant) \
        and test.comparators[0].value == "__main__"


SETUP_FORBIDDEN_WORDS = ("file", "load", "save", "storage", "Storage", "pickle", "mmap", "dlpack", "generator",
                         "Generator", "rng", "seed", "hub", "library", "share_memory", "frombuffer", "from_buffer")


def setup_forbidden(parts):
    """torch calls set-up may not make although it may compute: files, storages, RNG state, torch classes."""
    for p in parts[1:]:
        if any(w in p for w in SETUP_FORBIDDEN_WORDS):
            return True
    if len(parts) == 2 and parts[1][:1].isupper() and parts[1] not in ("Tensor", "Size"):
        return True
    return False
