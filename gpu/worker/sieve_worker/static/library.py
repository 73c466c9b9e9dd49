"""The resolver's library models: torch, triton and builtins called by the answer, casts and shape-only calls."""
import ast

from . import cppext, lang
from .values import (FLAGGED, TORCH_FORBIDDEN_CALLS, UNKNOWN, V, alts, collect_funcs, device_value, dtype_value,
                     has_kind, scalar, setup_forbidden, tensor, union)


class Library:
    """A part of resolver.Resolver (its docstring says what the whole does)."""

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

    @staticmethod
    def gpu_device(v):
        """Whether a .to() argument is the device every forward tensor is on: a tensor's .device (a name holding
        one too), torch.device("cuda") or "cuda" (the current GPU, where x.cuda() moves x; "cuda:1" may be
        another)."""
        return bool(alts(v)) and all(a.kind == "scalar" and (a.info == "device" or a.const == "cuda")
                                     for a in alts(v))

    @staticmethod
    def to_keywords(node):
        """A .to() call's keywords without those that change nothing: copy=False (the default) and
        non_blocking=<constant>; None where one could copy (copy=True, a copy flag stage 0 cannot read) or is
        unknown (**kwargs, memory_format=)."""
        out = {}
        for k in node.keywords:
            if k.arg == "copy" and isinstance(k.value, ast.Constant) and k.value.value is False or \
                    k.arg == "non_blocking" and isinstance(k.value, ast.Constant):
                continue
            if k.arg not in ("dtype", "device"):
                return None
            out[k.arg] = k.value
        return out

    def same_type_cast(self, f, args, kwargs, node, fr):
        """x.to(t.dtype), x.to(t.device), x.to(device=..., dtype=...) and x.type_as(t) where x is known to have t's
        dtype (and every forward tensor is on the GPU: moving one elsewhere is flagged): a no-op, not a copy.
        A move to t.device (or "cuda", as x.cuda()) alone needs no dtype knowledge (x = self.conv(x);
        x.to(x.device)). copy=False and non_blocking= change nothing; copy=True is a copy."""
        if not isinstance(node, ast.Call) or not node.args and not node.keywords or \
                any(isinstance(a, ast.Starred) for a in node.args):
            return False
        kw = self.to_keywords(node)
        if kw is None or not node.args and not kw:
            return False

        def dtsrcs(e):
            if not isinstance(e, ast.Name):
                return None
            v = self.lookup(e.id, fr, e)
            return {a.dtsrc for a in alts(v)} if alts(v) and all(a.kind == "tensor" for a in alts(v)) else None

        for e, v in list(zip(node.args, args)) + [(e, kwargs.get(k)) for k, e in kw.items()]:
            if f.name == "type_as":
                if f.dtsrc is None or dtsrcs(e) != {f.dtsrc}:
                    return False
            elif self.gpu_device(v):
                continue
            elif not isinstance(e, ast.Attribute) or e.attr != "dtype":
                return False
            elif f.dtsrc is None or dtsrcs(e.value) != {f.dtsrc}:
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

    def dtype_cast(self, name, args, kwargs, node):
        """x.float(), x.half(), x.type_as(t), x.to(torch.float16), x.to(t.dtype), x.to(t), x.to(t.device, dtype=d),
        x.to(device="cuda", dtype=d, copy=False): a change of dtype and nothing else (no copy=True,
        memory_format=, or move to a device other than the one the forward's tensors are on)."""
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
        kw = self.to_keywords(node)
        if kw is None or "device" in kw and not self.gpu_device(kwargs.get("device")):
            return False
        found = "dtype" in kw and dtype(kwargs.get("dtype"))
        if "dtype" in kw and not found:
            return False
        for v in args:
            if dtype(v):
                found = True
            elif not self.gpu_device(v):
                return False
        return found

    def tensor_method(self, f, args, kwargs, node, fr):
        name = f.name
        if name in lang.TENSOR_META_METHODS:
            return scalar()
        if name in ("to", "type_as") and self.same_type_cast(f, args, kwargs, node, fr):
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
        if path == "torch.device" and len(args) == 1 and not kwargs and args[0].kind == "scalar" \
                and args[0].const == "cuda":
            return device_value()
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
