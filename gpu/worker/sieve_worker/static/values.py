"""Stage 0's abstract values (V and its kinds), frames, the step budget and its limits, and the
statement helpers that the resolver's parts share (resolver.py)."""
import ast

from . import lang


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


def device_value():
    """t.device (or torch.device("cuda")): x.to(it) moves x to the device the inputs are on, which it is on."""
    return V("scalar", const=NOCONST, info="device")


def scalar(const=NOCONST):
    return V("scalar", const=const)


def tensor(origin="other", reordered=False, dtsrc=None):
    """origin: "input" (a forward parameter), "layer" (what a torch layer returned on such a tensor: on the
    inputs' device like them), "param", "alloc" or "other".
    reordered: a view that moved elements (x.t(), x[:, 1:]): copying it is the computation of some tasks.
    dtsrc: the forward parameter whose dtype this tensor is known to have (an input, its views, *_like(input))."""
    return V("tensor", origin=origin, reordered=reordered, dtsrc=dtsrc)


ON_INPUT_DEVICE = ("input", "layer")  # origins of tensors that are on the device the inputs are on


def on_input_device(v):
    return bool(alts(v)) and all(a.kind == "tensor" and a.origin in ON_INPUT_DEVICE for a in alts(v))


def union(values):
    out, seen = [], set()
    for v in values:
        if v is None:
            continue
        for a in (v.alts if v.kind == "union" else [v]):
            if a.kind in ("scalar", "unknown"):
                c = a.const
                key = (a.kind, c if isinstance(c, (str, int, float, bool, type(None))) else id(c), a.flagged,
                       a.info if a.info in ("dtype", "device") else None)
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
