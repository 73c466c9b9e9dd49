"""The resolver's statements: blocks, branches, loops, assignments, function and class definitions."""
import ast

from .values import (FLAGGED, Frame, MAX_LOOP_PASSES, MAX_SIG_NODES, UNKNOWN, V, alts, definitely_assigned,
                     is_main_guard, keys, members, on_input_device, replaces_only, scalar, tensor, union)


class Statements:
    """A part of resolver.Resolver (its docstring says what the whole does)."""

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
        forward input (or a view of one, or what a torch layer returned on one): a tensor the answer made on the
        CPU itself would take the branch on the GPU too."""
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
        return on_input_device(self.lookup(e.id, fr, e))

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
