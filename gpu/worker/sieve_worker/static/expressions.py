"""The resolver's expressions: each ast node kind's value, attributes, subscripts and iteration."""
import ast

from . import lang
from .values import (FLAGGED, Frame, MAX_CONST, NOCONST, RAISES, UNKNOWN, V, alts, device_value, dtype_value, elements,
                     has_kind, is_torch_value, keys, members, scalar, tensor, union, unstar)


class Expressions:
    """A part of resolver.Resolver (its docstring says what the whole does)."""

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
                if name == "device" and fr.mode == "forward":
                    return device_value()  # set-up runs before the harness moves the model: there it is the CPU
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
            if name in lang.MODULE_SELF_RETURNING and fr.mode == "setup":
                return V("bound", inner=V("decorator", name="identity"), args=[a])
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
