"""The resolver's calls: functions, classes and instances, launches, callbacks and containers' methods."""
import ast

from . import lang
from .values import (FLAGGED, ON_INPUT_DEVICE, Frame, RAISES, UNKNOWN, V, alts, elements, empty_grid, is_torch_value,
                     keys, members, on_input_device, scalar, tensor, union, unstar)


class Calls:
    """A part of resolver.Resolver (its docstring says what the whole does)."""

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
            # its output is on its input's device (or the call fails: a layer's weights elsewhere), so
            # `if not y.is_cuda:` after `y = self.linear(x)` is as CPU-only as it is on x itself
            others = [a for v in list(args[1:]) + list(kwargs.values()) for a in alts(v) if a.kind == "tensor"]
            on_dev = bool(args) and on_input_device(args[0]) and all(a.origin in ON_INPUT_DEVICE for a in others)
            return tensor("layer" if on_dev else "other")
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
