"""Task modules: loading, shape overrides, derived shapes, inputs, reference outputs and task hygiene.

Used by the worker's task servers (trusted.TaskServer) and by the candidate child, so both build inputs the same way:
seed -> get_init_inputs() -> Model(...) -> seed -> get_inputs().
"""
import ast
import collections
import contextlib
import hashlib
import importlib.util
import os
import sys
import time

from . import context, hygiene, inputsets, paramsets
from .outputs import NOISE_FACTOR, NOISE_MAX_BYTES, f64_cheap, flatten_outputs, float64_run, set_noise  # noqa: F401
from .runmode import as_kernelbench_runs
from .refstore import cache_path, load_ref, ref_meta, save_ref, to_numpy
from .seeds import secret_seed, seed_torch, weight_seed
from .sizes import (DERIVED_MAX_BYTES, above_unaligned, derive_shape, mid_aligned,  # noqa: F401
                    nearby_unaligned, set_anchor, spread)

TOLERANCES = {"fp32": 1e-4, "fp16": 1e-2, "bf16": 1e-2}


def load_module(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod  # dataclasses and triton look modules up by name
    spec.loader.exec_module(mod)
    return mod


def int_expr(node, known):
    """The value of an int literal or of arithmetic over int literals and earlier int constants
    (KernelBench writes `N = 2048 * 2`, `K = 131072 * 4`); None for anything else."""
    if isinstance(node, ast.Constant):
        return node.value if type(node.value) is int else None
    if isinstance(node, ast.Name):
        v = known.get(node.id)
        return v if type(v) is int else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Pow)):
        a, b = int_expr(node.left, known), int_expr(node.right, known)
        if a is None or b is None or (isinstance(node.op, ast.FloorDiv) and b == 0) or \
                (isinstance(node.op, ast.Pow) and not 0 <= b <= 64):
            return None
        return {ast.Add: a + b, ast.Sub: a - b, ast.Mult: a * b}.get(type(node.op)) if not isinstance(
            node.op, (ast.FloorDiv, ast.Pow)) else (a // b if isinstance(node.op, ast.FloorDiv) else a ** b)
    return None


def size_constants(code, tuples=False):
    """Module-level int constants (> 1) that get_inputs/get_init_inputs read: the task's sizes. With
    `tuples`, also module-level tuples of ints they read (KernelBench's `input_shape = (32768,)`), which
    only scale_down changes: a literal size that must shrink with the int it equals."""
    tree = ast.parse(code)
    consts = {}
    used = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and all(isinstance(t, ast.Name) for t in node.targets) and \
                (len(node.targets) == 1 or int_expr(node.value, consts) is not None):
            v = node.value
            n = int_expr(v, consts)
            if n is not None and n > 1:
                for t in node.targets:  # `height = width = 128` too
                    consts[t.id] = n
            elif tuples and len(node.targets) == 1 and isinstance(v, ast.Tuple) and v.elts and all(
                    isinstance(e, ast.Constant) and type(e.value) is int for e in v.elts):
                consts[node.targets[0].id] = tuple(e.value for e in v.elts)
        if isinstance(node, ast.FunctionDef) and node.name in ("get_inputs", "get_init_inputs"):
            for sub in ast.walk(node):
                if isinstance(sub, ast.Name):
                    used.add(sub.id)
    return {k: v for k, v in consts.items() if k in used}


class Deriver:
    """Derived shapes of a task, each checked on the meta device (no memory, no compute): a change of one of
    its sizes is kept only when the reference still runs with it (a group count must still divide its
    channels; a bias shape made from out_channels at import must still fit), so a derived shape is not lost
    where one of its sizes cannot move. A size changes everywhere it appears (ints and tuple entries alike,
    as in scale_down), or else alone."""

    def __init__(self, mod, consts, tuples, seed, style, max_bytes=DERIVED_MAX_BYTES):
        self.mod, self.consts, self.tuples, self.seed, self.style = mod, consts, tuples or {}, seed, style
        self.max_bytes = max_bytes
        self.original = {**{k: list(v) for k, v in self.tuples.items() if isinstance(v, (tuple, list))}, **consts}

    def moved(self, shape):
        """Bytes one call moves at `shape` (inputs, outputs, parameters), or None where the reference cannot
        run there."""
        apply_shape(self.mod, shape)
        try:
            est = meta_footprint(self.mod, self.mod.Model, self.seed, self.style)
        finally:
            apply_shape(self.mod, self.original)  # the sizes it tried undone
        return None if est is None else sum(est)

    @staticmethod
    def sizes(shape):
        return sorted({e for v in shape.values() for e in (v if isinstance(v, list) else [v])
                       if isinstance(e, int) and e > 8}, reverse=True)

    @staticmethod
    def changes(shape, v, new):
        """The shape with size v changed to new: everywhere it appears, then each int constant of it alone."""
        yield {k: [new if e == v else e for e in x] if isinstance(x, list) else (new if x == v else x)
               for k, x in shape.items()}
        keys = [k for k, x in shape.items() if x == v]
        if len(keys) > 1 or any(isinstance(x, list) and v in x for x in shape.values()):
            for k in keys:
                yield {**shape, k: new}

    def moved_off(self, cur, move, keep=()):
        """cur with each size moved by `move` where the reference still runs."""
        for v in self.sizes(cur):
            if v not in keep and move(v) != v:
                cur = next((t for t in self.changes(cur, v, move(v)) if self.moved(t) is not None), cur)
        return cur

    def result(self, cur):
        derived = {k: v for k, v in cur.items() if k in self.consts or v != self.original[k]}
        return derived if derived != self.consts else None

    def nearby(self, move=nearby_unaligned):
        """Every size moved off the multiples of 16, a size in several places apart (spread), where the reference
        runs there; else derive_shape's (tuple entries kept, equal sizes alike), or as much of it as the reference
        runs at; derive_shape's as it is where the meta device cannot tell or nothing runs (the reference pass then
        drops it with the reason: the task is checked at its own shape only, and says so)."""
        apart = spread(self.original, move)
        if apart != self.original and self.moved(apart) is not None:
            return self.result(apart)
        d = derive_shape(self.consts, self.tuples, move)
        if d is None or self.moved(self.original) is None or self.moved(d) is not None:
            return d
        keep = {e for v in self.tuples.values() if isinstance(v, (tuple, list)) for e in v}
        return self.result(self.moved_off(dict(self.original), move, keep)) or d

    def inner(self, shape):
        """The last dimension of the task's first float input at `shape` (made on the meta device), or None."""
        import torch
        apply_shape(self.mod, shape)
        try:
            with torch.device("meta"):
                inputs = make_inputs(self.mod, self.seed)
            t = next((t for t in inputs if isinstance(t, torch.Tensor) and t.is_floating_point() and t.dim()), None)
            return int(t.shape[-1]) if t is not None else None
        except Exception:
            return None
        finally:
            apply_shape(self.mod, self.original)

    def mixed(self, base):
        """base (the derived shape) with its innermost size (the first float input's last) an odd multiple of 32
        (sizes.mid_aligned) where the reference runs there, else None. Of several sizes equal to it (a conv's batch,
        channels, height, width), the one that moves it is found by moving each alone."""
        inner = self.inner(base)
        if inner is None:
            return None
        places = [(k, None) for k, v in base.items() if v == inner and not isinstance(v, bool)] + \
            [(k, i) for k, v in base.items() if isinstance(v, list) for i, e in enumerate(v) if e == inner]
        if len(places) > 1:
            def moved_alone(k, i):
                probe = dict(base)
                probe[k] = inner + 2 if i is None else [e + 2 if j == i else e for j, e in enumerate(base[k])]
                return self.inner(probe) == inner + 2
            places = [p for p in places if moved_alone(*p)][:1] or places
        # a size the task wrote odd stays, as in every derived shape (an answer's LayerNorm(1001): data_layernorm_pass)
        own = [self.original.get(k) if i is None else (self.original.get(k) or [None] * (i + 1))[i] for k, i in places]
        if not places or any(isinstance(v, int) and v % 2 for v in own):
            return None
        cur = dict(base)
        for k, i in places:
            cur[k] = mid_aligned(inner) if i is None else [mid_aligned(inner) if j == i else e
                                                           for j, e in enumerate(cur[k])]
        if cur != base and self.moved(cur) is not None:
            return self.result(cur)
        return None

    def small(self):
        """For a task whose own shape moves more than max_bytes per call: its sizes halved, largest
        first, until a call moves at most that (or nothing halves further), then each moved off every block
        size (nearby_unaligned); None for a smaller task or where nothing shrinks."""
        size = self.moved(self.original)
        if size is None or size <= self.max_bytes:
            return None
        cur = dict(self.original)
        for _ in range(256):
            if size <= self.max_bytes:
                break
            trials = (t for v in self.sizes(cur) for t in self.changes(cur, v, max(8, v // 2)))
            for trial in trials:
                m = self.moved(trial)
                if m is not None and m < size:
                    cur, size = trial, m
                    break
            else:
                break  # nothing shrinks further with the reference still running: as small as it gets
        if cur == self.original:
            return None
        return self.result(self.moved_off(cur, nearby_unaligned))


def task_shapes(mod, code, req, seed):
    """The shapes a task is checked at, each {"shape", "origin"}, with "seeds" where fewer than all seeds are
    checked: the module's own ("module", at its real size), the task's listed ones ("task"), and derived
    ones (also where the task lists its own), there to exercise masks and tails (Deriver): a nearby shape
    with odd sizes ("derived"), or,
    for a task whose own shape moves more than DERIVED_MAX_BYTES per call, a small one with no even size checked at every seed ("derived") and the nearby one, at full size, checked at one seed
    ("derived_full"). At full size on every seed the second shape doubled the time of every answer to
    KernelBench's level 1 (4096 x 393216: each check moves 12.9 GB); with no large derived shape at all, an
    answer whose code takes another path for small sizes could hide a tail bug of its large path. The
    references (verify) and the hygiene pass (tasks check) take the same list. The request's
    "derived_max_bytes" replaces DERIVED_MAX_BYTES (fixtures make large tasks of small ones with it)."""
    consts = size_constants(code)
    shapes = [{"shape": dict(consts), "origin": "module"}]
    for s in req.get("shapes") or []:
        shapes.append({"shape": {**consts, **s}, "origin": "task"})
    # Derived shapes with tails are added also where the task lists shapes: the sizes a task author lists
    # are usually powers of two, and an answer whose mask is off by a block passes every one of them.
    der = Deriver(mod, consts, size_constants(code, tuples=True), seed,
                  req.get("init_inputs_style", "kernelbench"),
                  int(req.get("derived_max_bytes") or DERIVED_MAX_BYTES))
    # a small task's derived shape lies above its own (a block that fits the task's rows exactly no longer
    # does); a large task's full-size one below (memory), its small one halved and moved off
    small = der.small()
    nearby = der.nearby() if small else der.nearby(above_unaligned)
    listed = [sh["shape"] for sh in shapes]
    if small and small not in listed:
        shapes.append({"shape": small, "origin": "derived"})
    if nearby and nearby not in listed:
        shapes.append({"shape": nearby, "origin": "derived_full", "seeds": 1} if small else
                      {"shape": nearby, "origin": "derived"})
    # one size aligned, the others not, at one seed: a fast path chosen on the row length's alignment ran with a tail
    # in the rows (every other derived shape moves all sizes off every alignment at once)
    mixed = der.mixed({**der.original, **(small or nearby or {})})
    if mixed and all(mixed != sh["shape"] for sh in shapes):
        shapes.append({"shape": mixed, "origin": "derived_mixed", "seeds": 1})
    # Every shape names every size any of them changes: shapes are applied to one module one after another
    # (a child's checks in a secret order, the judge's and the task servers' cached modules), and a tuple a
    # derived shape shrank (`input_shape`) stayed shrunk at the task's own shape, whose inputs were then
    # 32768 x 1999 instead of 32768 x 32768. A listed shape may name a variable that is no size constant
    # (`M = 1`): the others name it too, at the module's own value (apply_shape also restores it first).
    own = {**{k: list(v) for k, v in size_constants(code, tuples=True).items() if isinstance(v, tuple)}, **consts}
    for s in req.get("shapes") or []:
        for k in s:
            if k not in own:
                v = module_value(mod, k)
                if v is not _MISSING:
                    own[k] = list(v) if isinstance(v, tuple) else v
    named = {k for sh in shapes for k in sh["shape"] if k in own}
    for sh in shapes:
        sh["shape"] = {**{k: own[k] for k in sorted(named - set(sh["shape"]))}, **sh["shape"]}
    return shapes


def input_elements(mod, shape, seed):
    """Elements of the inputs at `shape`, counted on torch's meta device where get_inputs allows it (a
    KernelBench input of 6 GB is never built to be counted), else by building them."""
    import torch
    apply_shape(mod, shape)
    try:
        with torch.device("meta"):
            inputs = make_inputs(mod, seed)
        if all(t.is_meta for t in inputs if isinstance(t, torch.Tensor)):
            return sum(t.numel() for t in inputs if isinstance(t, torch.Tensor))
    except Exception:
        pass  # e.g. get_inputs() calls .cuda() or reads a tensor's values
    return sum(t.numel() for t in make_inputs(mod, seed) if isinstance(t, torch.Tensor))


def scale_down(mod, shape, limit, seed, tuples=None):
    """CPU mode: halve the largest size (> 8) until the inputs hold at most `limit` elements, so the Triton
    interpreter (one Python pass per program instance) finishes in seconds. Sizes that are equal shrink
    together, ints and the entries of int tuples alike (the shape's own tuple entries, as lists, and
    `tuples`: size_constants(code, tuples=True)'s tuples), so that `torch.rand(batch_size, *input_shape)`
    times a `(batch_size,)` vector still broadcasts when batch_size == input_shape[0] (KernelBench's hinge
    loss)."""
    ints = {k: v for k, v in shape.items() if not isinstance(v, (list, tuple))}
    listed = {k for k, v in shape.items() if isinstance(v, (list, tuple))}
    tups = {k: tuple(v) for k, v in shape.items() if k in listed}
    tups.update({k: tuple(v) for k, v in (tuples or {}).items() if isinstance(v, (tuple, list)) and k not in shape})
    changed = set(listed)
    for _ in range(64):
        try:
            if input_elements(mod, {**ints, **{k: tups[k] for k in changed}}, seed) <= limit:
                break
        except Exception:
            break  # the reference pass reports the failure
        sizes = [v for v in ints.values() if isinstance(v, int) and v > 8]
        sizes += [e for t in tups.values() for e in t if e > 8]
        if not sizes:
            break
        big = max(sizes)
        half = max(8, big // 2 | big & 1)  # an odd (derived, tail) size stays odd
        for k, v in ints.items():
            if v == big:
                ints[k] = half
        for k, t in tups.items():
            if big in t:
                tups[k] = tuple(half if e == big else e for e in t)
                changed.add(k)
    return {**ints, **{k: list(tups[k]) for k in sorted(changed)}}


_MISSING = object()


def plain_value(v):
    """Whether v can be a shape variable's value as the harness sets it: None, an int, float, bool or str, or a tuple
    of them, by exact type. Anything else there is no task's: an object whose __index__ is the answer's (C callables
    of its) would run while the inputs are made (docs/VERIFIER.md, round 8)."""
    if type(v) is tuple:
        return all(plain_value(x) for x in v)
    return v is None or v is _MISSING or type(v) in (int, float, bool, str)


def module_value(mod, k):
    """The module's own value of a shape variable, as imported (before any apply_shape)."""
    orig = mod.__dict__.get("__sieve_shape_orig__") or {}
    return orig[k] if k in orig else getattr(mod, k, _MISSING)


def apply_shape(mod, shape):
    """Sets a shape's variables on the task module, from a fresh state: every variable an earlier shape set
    is first put back to the module's own value, so a size one shape names and another does not (`M` of
    `{"M": 4, "N": 1000}` at a shape `{"N": 128}`) is the same in every process whatever ran before (the
    reference server ran the listed shape last and kept M = 4; a fresh candidate child had M = 1)."""
    orig = mod.__dict__.setdefault("__sieve_shape_orig__", {})
    news = {k: tuple(v) if type(v) is list else v for k, v in (shape or {}).items()}
    bad = [k for k, v in list(orig.items()) + list(news.items()) if not plain_value(v)]
    if bad:
        raise TypeError(f"the task module's shape variable {bad[0]} holds no plain value (set by the answer?)")
    for k, v in orig.items():
        if v is _MISSING:
            mod.__dict__.pop(k, None)
        else:
            setattr(mod, k, v)
    for k, v in news.items():  # a shrunk tuple literal travels as a list
        if k not in orig:
            orig[k] = getattr(mod, k, _MISSING)
        setattr(mod, k, v)


def split_init(init, style):
    init = list(init) if init is not None else []
    if style == "kernelbook" and len(init) == 2 and isinstance(init[0], (list, tuple)) and isinstance(init[1], dict):
        return list(init[0]), dict(init[1])
    return init, {}


def build(mod, cls, seed, style, weights=None, input_set=None):
    """cls(*init inputs), constructed with torch seeded by weight_seed(seed) (or by `weights`, that seed as the worker
    sends it to a candidate, before the check's seed itself): the reference and the answer's model alike (the harness
    then copies the reference's weights into the answer's by name as well). For a params set (paramsets.PARAM_SETS),
    its constructor's constants varied: build_varied."""
    return build_varied(mod, cls, seed, style, weights, input_set)[0]


def build_varied(mod, cls, seed, style, weights=None, input_set=None):
    """build's model and {name: value before} of what a params set varied in it ({} for other sets). The constants
    are found by building a twin under another weight seed (paramsets.constant_tensors)."""
    import torch
    ws = weights if weights is not None else weight_seed(seed)

    def make(s):
        torch.manual_seed(s)
        args, kwargs = split_init(mod.get_init_inputs() if hasattr(mod, "get_init_inputs") else [], style)
        torch.manual_seed(s)
        return cls(*args, **kwargs)
    model = make(ws)
    if paramsets.params_set(input_set)[0] is None:
        return model, {}
    twin = make((ws + 0x9E3779B97F4A7C15) % (1 << 63))
    varied = paramsets.vary_parameters(model, ws, input_set, twin)
    del twin
    return model, varied


def make_inputs(mod, seed):
    seed_torch(seed)
    return list(mod.get_inputs())


def device_inputs(mod, seed, device):
    """The task's inputs for a seed, made on `device`: factory calls inside get_inputs() allocate there (no
    host copy on the GPU; the device's own generator, so the reference child and the candidate child, which
    both call this, get the same values); tensors it makes elsewhere explicitly are moved."""
    import torch
    dev = torch.device(device)
    # the same path on every device (a device context on the CPU too): the context's module, which torch imports
    # at its first use, must be loaded before the runtime wall walks what is trusted (child.start_wall); on the
    # CPU alone this path was never taken, and every GPU check was a harness fault (seen on the H200)
    with dev:
        inputs = make_inputs(mod, seed)
    return [t.to(dev) if isinstance(t, torch.Tensor) and t.device != dev else t for t in inputs]


def set_inputs(mod, seed, device, input_set=None):
    """The inputs of a check: the task's for the seed (device_inputs), or a derived input set made from them
    (inputsets.derive); the reference, the judge and the candidate child all call this."""
    inputs = device_inputs(mod, seed, device)
    return inputs if input_set in (None, "task") else inputsets.derive(inputs, input_set, seed)


def input_set_of(summary, si):
    """The input set a check of entry si of a reference summary uses ("task" for the task's own)."""
    sets = summary.get("input_sets") or []
    return sets[si] if si < len(sets) else "task"


def set_atol(summary, si):
    """(atol, rtol) a check of entry si of a reference summary is compared with: the task's, widened on a
    derived input set to NOISE_FACTOR times the reference's own rounding there (set_atols); a set with a
    tolerance of its own (inputsets.TOLERANCES: zero for `exact`, where the reference rounds nowhere) has
    that one."""
    own = inputsets.TOLERANCES.get(input_set_of(summary, si))
    if own is not None:
        return own
    atol, rtol = summary["atol"], summary["rtol"]
    wide = (summary.get("set_atols") or [None] * (si + 1))
    return (max(atol, wide[si]) if si < len(wide) and isinstance(wide[si], (int, float)) else atol), rtol


def choose_sets(mod, shape, seeds, style, device, atol, rtol, guard=None):
    """inputsets.choose at one shape, the reference built at the first seed: (kept, notes, dropped). guard
    (context.SetGuard; a fresh one when None: `tasks check`) is told which set runs, and leaves out the sets an earlier
    attempt lost the context on."""
    import torch
    guard = guard or context.SetGuard(torch.device(device))
    apply_shape(mod, shape)
    model = as_kernelbench_runs(build(mod, mod.Model, seeds[0], style).to(device))

    def run(inputs):
        with torch.no_grad():
            return flatten_outputs(model(*inputs))
    run64s = []

    def run64(inputs):  # the reference in float64, for the exact set (its copy made on the first call)
        if not run64s:
            run64s.append(float64_run(model))
        return run64s[0](inputs)
    kept, notes, dropped = inputsets.choose(run, lambda sd: device_inputs(mod, sd, device), seeds, atol, rtol, run64,
                                            epsilon=inputsets.file_has_epsilon(getattr(mod, "__file__", None)),
                                            guard=guard)
    # the params sets: the task's inputs at two seeds, the reference with its constructor's constants varied; on the
    # signed set's too where it is kept (a PReLU's slope on torch.rand's inputs: redteam inputs
    # r24_prelu_rand_slope_const, r25_prelu_rand_bias_slope_const); positive where the signed draws are not finite
    # (a gain under a square root: r25_sqrt_gain_ignored, on the signed inputs too: r27_prelu_sqrt_gain_rand_slope_const);
    # every element near its value (a probability, a single slope's own band: r27_bernoulli_prior_const,
    # r27_prelu_scalar_pos_snap); params_flip without its zeros where they make it not finite (a divisor:
    # r27_prelu_scalar_divisor_snap)
    unvaried = {}  # (seed, on signed inputs) -> (inputs, the reference's own outputs): made once for all the sets

    def own(sd, name):
        key = (sd, paramsets.params_set(name)[0] == paramsets.PARAMS_SIGNED)
        if key not in unvaried:
            m = model if sd == seeds[0] else as_kernelbench_runs(build(mod, mod.Model, sd, style).to(device))
            x = set_inputs(mod, sd, device, name)
            with torch.no_grad():
                unvaried[key] = (x, flatten_outputs(m(*x)))
        return unvaried[key]
    # (why the set is dropped, or None; the names varied): its output not finite at a seed, or the task's own at both
    # (an Embedding's padding row that one seed's indices never read: redteam inputs r24_embedding_pad_row_zero)
    discrete = {}  # the integer and bool tensors a params set varies (paramsets.constant_discrete), in order

    def floating(before):  # the floating tensors' names: the ones whose signs abs_set gives back
        discrete.update((n, None) for n, t in before.items() if not t.is_floating_point())
        return [n for n, t in before.items() if t.is_floating_point()]

    def gate(name):
        whys = []
        for sd in list(seeds)[:2]:
            varied, before = build_varied(mod, mod.Model, sd, style, input_set=name)
            if not before:
                return "the reference has no constant parameter", []
            if guard.skipped(name):  # it lost the device context in an earlier attempt: as if it raised (an index
                return paramsets.PARAMS_NOT_FINITE, floating(before)  # list drawn out of range), so held as on the CPU
            guard.enter(name)
            x, o = own(sd, name)
            try:
                varied = as_kernelbench_runs(varied.to(device))
                with torch.no_grad():
                    whys.append(paramsets.params_gate(flatten_outputs(varied(*x)), o, atol, rtol))
            except torch.cuda.OutOfMemoryError:
                raise
            except Exception as e:  # a reference that raises on the state (a Normal's negative scale) is not finite
                guard.check(e)  # there: params_abs is tried (redteam inputs r30_normal_std_const)
                whys.append(paramsets.PARAMS_NOT_FINITE)
            del varied, x, o
            if whys[-1] is not None and whys[-1] != paramsets.PARAMS_UNCHANGED:
                return whys[-1], floating(before)
        return (None if None in whys else whys[0]), floating(before)
    paramsets.choose(gate, kept, dropped, discrete)
    return kept, notes, dropped


def meta_footprint(mod, cls, seed, style):
    """(input bytes, output bytes, parameter bytes) of one call, from meta tensors (no memory, no compute),
    or None when the task cannot run on the meta device."""
    import torch
    try:
        with torch.device("meta"):
            model = build(mod, cls, seed, style)
            inputs = make_inputs(mod, seed)
            with torch.no_grad():
                outs = flatten_outputs(model(*inputs))
        nb = lambda ts: sum(t.numel() * t.element_size() for t in ts if isinstance(t, torch.Tensor))
        return nb(inputs), nb(outs), nb(list(model.parameters()) + list(model.buffers()))
    except Exception as e:
        # why a task has no size estimate (and so no small derived shape): once per task and reason, to the log
        key = (getattr(mod, "__name__", ""), f"{type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}")
        if key not in _META_FAILED:
            _META_FAILED.add(key)
            print(f"reference {getattr(mod, '__file__', '?')}: no size estimate on the meta device: {key[1]}",
                  file=sys.stderr, flush=True)
        return None


_META_FAILED = set()  # meta_footprint's reasons already in the log


RECOMPUTE_BYTES = 1 << 30  # on a GPU, a call's outputs over this are judged where they are made (judge.py)
BIG_REF_BYTES = 256 << 20  # a reference computation over this (inputs + outputs) runs alone (big_lock)


def setup_device(device):
    """The reference's numerics, wherever it runs (the reference child and the judge): full fp32."""
    import torch
    if device.type == "cuda":
        torch.cuda.set_device(device)
        torch.backends.cuda.matmul.allow_tf32 = False  # the reference in full fp32, as on the CPU
        torch.backends.cudnn.allow_tf32 = False


def take_lock(path):
    """Blocks until this process holds the lock file at path; returns its fd (closing it releases it)."""
    return take_lock_fd(os.open(path, os.O_RDWR | os.O_CREAT, 0o644))


def take_lock_fd(fd):
    """take_lock on an open lock file (a confined task server gets it from the worker)."""
    import fcntl
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


def room_under_lock(room, big_lock, held, locked, nbytes):
    """(room(nbytes), True): device memory for a reference, asked with the big lock held (taken here unless
    `locked`, released when `held` closes). Every reference takes the lock before it waits for room, never the
    other way round: a retry granted the whole device that then waited for the lock, held by a reference
    waiting for room, waited forever (the H200, 2026-12-04: two 6.4 GB tasks, the device drained and the run
    stalled for minutes)."""
    if big_lock and not locked:
        held.callback(os.close, take_lock(big_lock))
        locked = True
    return room(nbytes), locked


def reference_need(est):
    """Device memory a reference pass of one shape holds at its peak, from its meta footprint (inputs,
    outputs, parameters): the inputs, the outputs, the determinism rerun's outputs, hygiene's float64
    chunks and what the caching allocator keeps between seeds. On the H200 a 6.4 GB-in, 6.4 GB-out task
    held 32.7 GB where twice one call (25.8 GB) was promised, and the judge beside it ran out of memory."""
    return 2 * est[0] + 3 * est[1] + est[2]


def left_to_judge(out_bytes, n_seeds, disk_left, device):
    """(recompute?, for want of disk?) for a shape whose call returns out_bytes: a reference over
    RECOMPUTE_BYTES on a GPU, or one whose seeds would not fit the disk, is not kept (the judge recomputes it)."""
    big = device.type == "cuda" and out_bytes > RECOMPUTE_BYTES
    short = out_bytes * n_seeds > disk_left
    return big or short, short and not big


def room_for(nbytes, device):
    """Whether the device has room for another nbytes (a second run's outputs) with a margin."""
    if device.type != "cuda":
        return True
    import torch
    free, _ = torch.cuda.mem_get_info(device)
    return free > nbytes * 1.25 + (1 << 30)


class DeviceFull(Exception):
    """The reference ran out of device memory while candidates and other references held theirs: the
    harness's load, not the task's size. The worker computes the task's references again alone."""


def compute_references(req, task_path, cache_dir, room=None):
    """Runs in a task server (trusted.TaskServer): computes references for every shape and seed on the worker's device
    (inputs made there, see device_inputs) and returns the summary the worker turns into task_ready.

    Seeds: the request's seeds are labels; the inputs of label k come from a secret seed drawn here
    (secret_seed), returned to the worker in the summary and never shown to a sample. References land in
    cache_dir/refs (the worker session's own folder), one .npy per output; a shape whose references would
    not fit the disk budget (`ref_disk_bytes`) is dropped, and the task's own shape then is REF_TOO_LARGE
    with the bytes it needs. `max_task_bytes` bounds one call's inputs + outputs (the device's memory),
    estimated on the meta device before anything is allocated. room(nbytes), when given (a task server
    on a GPU), asks the worker's admission for the device memory of a large reference and waits for it,
    so that it does not run beside candidates that were promised the same memory."""
    with contextlib.ExitStack() as held:  # the big-reference lock, if taken, until the task is done
        try:
            return _references(req, task_path, cache_dir, held, room)
        except DeviceFull as e:
            return {"shapes": [], "dropped_shapes": [], "hygiene": [], "ok": False, "device_full": True,
                    "message": str(e)[:400]}


def _references(req, task_path, cache_dir, held, room=None):
    import torch
    torch.set_num_threads(max(1, min(4, os.cpu_count() or 1)))
    code = req["reference_code"]
    code_hash = hashlib.sha256(code.encode()).hexdigest()
    style = req.get("init_inputs_style", "kernelbench")
    seeds = list(req.get("seeds") or [0, 1, 2, 3, 4])
    while len(seeds) < 5:  # the ladder's floor: at least 5 seeds, whatever the request says
        seeds.append(max(seeds) + 1)
    secrets = [secret_seed() for _ in seeds]
    dtype = req.get("dtype", "fp32")
    atol = req.get("atol", TOLERANCES.get(dtype, 1e-4))
    rtol = req.get("rtol", TOLERANCES.get(dtype, 1e-4))
    max_bytes = int(req.get("max_task_bytes", 1 << 30))
    disk_left = int(req.get("ref_disk_bytes", 1 << 62))
    device = torch.device(req.get("ref_device", "cpu"))
    setup_device(device)
    big_lock = req.get("big_lock")
    judge = hygiene.Judge(atol, rtol)
    found = hygiene.static_findings(code)
    if found:  # a missing module or a download: running the reference would only fail
        return {"shapes": [], "dropped_shapes": [], "hygiene": found, "ok": False}
    try:
        mod = load_module(task_path, "sieve_task_" + code_hash[:12])
    except Exception as e:
        judge.shape(0, {}, "module")
        return {"shapes": [], "dropped_shapes": [], "hygiene": [judge.failed(0, e)], "ok": False}
    shapes = task_shapes(mod, code, req, secrets[0])
    kept, dropped = [], []
    limit = req.get("cpu_max_elements")
    if limit:
        tuples = size_constants(code, tuples=True)
        for sh in shapes:
            small = scale_down(mod, sh["shape"], int(limit), seeds[0], tuples)
            if small != sh["shape"]:
                dropped.append({"shape": sh["shape"], "reason": f"too large for the CPU interpreter (over {limit} "
                                                                f"input elements): scaled down to {small}"})
                sh["scaled_from"] = sh["shape"]
                sh["shape"] = small
    metas, footprints, recompute, checked, origins = [], [], [], [], []
    locked = for_disk = False
    granted = 0  # device memory admission promised this request (room); it grows to the largest shape's need
    # a reference that runs out of device memory beside others is computed again (worker.py start_reference:
    # its memory granted first, then alone, the whole device asked for); only alone is an out-of-memory the
    # task's size
    shared = device.type == "cuda" and room is not None and not req.get("alone")
    if device.type == "cuda" and room is not None and req.get("alone"):
        granted, locked = room_under_lock(room, big_lock, held, locked, torch.cuda.mem_get_info(device)[1])

    def device_full(e):
        return DeviceFull(f"the reference ran out of device memory beside other work: {str(e).splitlines()[0]}")
    for si, sh in enumerate(shapes):
        judge.shape(si, sh["shape"], sh["origin"], sh.get("scaled_from"))
        apply_shape(mod, sh["shape"])
        per_seed, err, foot = [], None, None
        spent = collections.Counter()  # where this shape's reference time goes (logged: bench breakdowns)
        t_shape = time.monotonic()
        try:
            # on the meta device (GPU mode: real sizes; the worker imported the meta registrations once, so
            # this costs milliseconds); CPU-mode shapes are scaled down and the real run below checks them
            est = meta_footprint(mod, mod.Model, secrets[0], style) if device.type != "cpu" else None
            # references that are large to keep are not kept: the judge recomputes them for each check
            hold = None
            if est is not None:
                if est[0] + est[1] > max_bytes:
                    raise MemoryError(f"one call's inputs and outputs take {est[0] + est[1]} bytes; "
                                      f"{max_bytes} are available on the device")
                hold, short = left_to_judge(est[1], len(seeds), disk_left, device)
                for_disk |= short
            if big_lock and not locked and (est is None or est[0] + est[1] > BIG_REF_BYTES):
                held.callback(os.close, take_lock(big_lock))  # one large reference at a time (unknown = large)
                locked = True
            if room is not None and est is not None and device.type == "cuda" and (
                    est[0] + est[1] > BIG_REF_BYTES or req.get("room_every_shape")):
                need = reference_need(est)
                if need > granted:
                    got, locked = room_under_lock(room, big_lock, held, locked, need - granted)
                    granted += got
            for seed, secret in list(zip(seeds, secrets))[:sh.get("seeds", len(seeds))]:
                path = cache_path(cache_dir, req["task_key"], code_hash, sh["shape"], secret)
                model = as_kernelbench_runs(build(mod, mod.Model, secret, style).to(device))
                inputs = device_inputs(mod, secret, device)
                nbytes = sum(t.numel() * t.element_size() for t in inputs if isinstance(t, torch.Tensor))
                spent["build"] += time.monotonic() - t_shape
                t = time.monotonic()
                with torch.no_grad():
                    raw = flatten_outputs(model(*inputs))
                    if device.type == "cuda":
                        torch.cuda.synchronize(device)
                    spent["forward"] += time.monotonic() - t
                    out_bytes = sum(t.numel() * t.element_size() for t in raw)
                    nbytes += out_bytes
                    if nbytes > max_bytes:
                        raise MemoryError(f"one call's inputs and outputs take {nbytes} bytes; {max_bytes} are "
                                          "available on the device")
                    if hold is None:  # no meta estimate: decided on the first real outputs
                        hold, short = left_to_judge(out_bytes, len(seeds), disk_left, device)
                        for_disk |= short
                    # hygiene where the outputs are (the device): statistics, and a second run compared
                    t = time.monotonic()
                    judge.add(si, seed, raw)
                    det_here = seed == seeds[0] and room_for(out_bytes, device)
                    if det_here:
                        again = flatten_outputs(model(*inputs))
                        if hygiene.differ(raw, again, atol, rtol):
                            judge.nondeterministic(si)
                        del again
                    spent["judge"] += time.monotonic() - t
                    if hold:
                        per_seed.append([(str(x.dtype).replace("torch.", ""), list(x.shape)) for x in raw])
                    else:
                        t = time.monotonic()
                        host = [to_numpy(x) for x in raw]
                        spent["to_host"] += time.monotonic() - t
                        t = time.monotonic()
                        save_ref(path, host)
                        del host
                        spent["save"] += time.monotonic() - t
                        per_seed.append(ref_meta(path))
                    if seed == seeds[0] and not det_here and hold:
                        judge.notes.append({"code": "REF_DETERMINISM_UNCHECKED", "message": (
                            f"shape {hygiene.fmt_shape(sh['shape'])}: no room on the device for a second run of "
                            "the reference, and its outputs are too large to compare on the host: whether it is "
                            "deterministic was not checked")})
                    if seed == seeds[0] and not det_here and not hold:
                        # no room on the device for a second set of outputs: compared on the host instead
                        t = time.monotonic()
                        again = [to_numpy(x) for x in flatten_outputs(model(*inputs))]
                        if hygiene.differ([a for _, a in load_ref(path)], [a for _, a in again], atol, rtol):
                            judge.nondeterministic(si)
                        del again
                        spent["determinism_host"] += time.monotonic() - t
                    if foot is None:
                        pb = sum(t.numel() * t.element_size()
                                 for t in list(model.parameters()) + list(model.buffers()))
                        foot = {"in": nbytes - out_bytes, "out": out_bytes, "params": pb}
                del raw, inputs, model
                if not hold:
                    disk_left -= out_bytes
                t_shape = time.monotonic()
        except torch.cuda.OutOfMemoryError as e:
            if shared:
                raise device_full(e) from None
            err = judge.failed(si, MemoryError(f"the reference ran out of device memory: {e}"[:400]))
            judge.shapes[si]["seeds"] = {}
        except Exception as e:  # the task's own code failed on this shape (MemoryError: REF_TOO_LARGE)
            err = judge.failed(si, e)
            judge.shapes[si]["seeds"] = {}
        print(f"reference {req.get('name') or req.get('task_key')} shape {si} ({sh['origin']}): "
              + ", ".join(f"{k} {v:.2f} s" for k, v in spent.items())
              + (f", {foot['out']} output bytes per call" if foot else ""), file=sys.stderr, flush=True)
        if err:
            if sh["origin"] == "module":
                return {"shapes": [], "dropped_shapes": [], "hygiene": [err], "ok": False}
            dropped.append({"shape": sh["shape"], "reason": f"{err['code']}: {err['message']}"})
            continue
        kept.append(sh["shape"])
        origins.append(sh["origin"])
        checked.append(len(per_seed))
        recompute.append(bool(hold))
        metas.append([[[d, list(shape)] for d, shape in outs] for outs in per_seed])
        footprints.append(foot)
    # derived input sets (inputsets): chosen at one shape, each checked there at inputsets.SEEDS seeds
    sets, set_report = ["task"] * len(kept), {}
    set_atols = [None] * len(kept)
    if kept and req.get("input_sets", True):
        ai = set_anchor([(f or {}).get("in", 0) + (f or {}).get("out", 0) for f in footprints],
                        [i for i, c in enumerate(checked) if c == len(seeds)] or list(range(len(checked))), origins)
        def add_set(si, name, n_seeds, gate=False):
            """the set `name` checked at shape si, at the first n_seeds secrets: one more entry; with `gate`, only
            where inputsets.gate_at keeps it at that shape (else the reason)"""
            per_seed, noise, floor = [], 0.0, 0.0
            guard.enter(name if si == ai else f"{si} {name}")
            apply_shape(mod, kept[si])
            for secret in secrets[:n_seeds]:
                model = as_kernelbench_runs(build(mod, mod.Model, secret, style, input_set=name).to(device))
                x = set_inputs(mod, secret, device, name)
                run = lambda xs: flatten_outputs(model(*xs))  # noqa: E731
                with torch.no_grad():
                    raw, cheap = inputsets.counted(run, x)
                why = gate and inputsets.gate_at(name, run, x, raw, atol, rtol, (lambda xs: float64_run(model)(xs))
                                                 if f64_cheap(x, raw, cheap) else None)
                if why:
                    return why
                n = set_noise(model, x, raw, cheap)
                noise = None if n is None or noise is None else max(noise, n)
                floor = max(floor, inputsets.set_floor(name, x))
                del x
                if recompute[si]:
                    per_seed.append([(str(x.dtype).replace("torch.", ""), list(x.shape)) for x in raw])
                else:
                    path = cache_path(cache_dir, req["task_key"], code_hash, kept[si], secret, name)
                    save_ref(path, [to_numpy(x) for x in raw])
                    per_seed.append(ref_meta(path))
                del raw, model
            kept.append(kept[si])
            sets.append(name)
            set_atols.append(max(NOISE_FACTOR * (noise or 0.0), floor) or None)
            checked.append(len(per_seed))
            recompute.append(recompute[si])
            metas.append([[[d, list(shape)] for d, shape in outs] for outs in per_seed])
            footprints.append(footprints[si])
        t_sets = time.monotonic()
        guard = context.SetGuard(device, req.get("skip_sets"))
        try:
            names, notes, why = choose_sets(mod, kept[ai], secrets, style, device, atol, rtol, guard)
            judge.notes += notes
            set_report = {"shape_index": ai, "kept": names, "dropped": why}
            for name in list(names):
                try:
                    add_set(ai, name, inputsets.SEEDS)
                except torch.cuda.OutOfMemoryError:
                    raise
                except Exception as e:  # this set alone is left out; the others stand
                    guard.check(e)
                    names.remove(name)
                    why[name] = f"{type(e).__name__}: {e}"[:200]
            # every kept set at every other checked shape too, at one seed, where its gates hold there: a path
            # chosen by size saw only the task's generator there (redteam inputs r15_leaky_even_fastpath_relu,
            # r22_hardtanh_aligned_no_upper, r23_ln_even_path_noaffine, r25_affine_long_rows_noaffine; a HardTanh
            # path for its 6.4 GB shape alone saw signed's [-1, 1) there on the H200 while only signed and the params
            # sets ran at shapes over BIG_REF_BYTES)
            others, left = {}, {}
            for si in range(len(origins)):
                for name in names if si != ai else []:
                    try:
                        why = guard.skipped(f"{si} {name}") or add_set(si, name, 1, gate=True)
                    except torch.cuda.OutOfMemoryError:
                        raise
                    except Exception as e:  # a set the shape does not take (a masked dimension it lacks)
                        guard.check(e)
                        why = f"{type(e).__name__}: {e}"[:200]
                    if why:
                        left[f"{si} {name}"] = why
                    else:
                        others.setdefault(si, []).append(name)
            set_report.update(other_shapes=others, left_at_other_shapes=left)
            guard.enter(None)  # the last set's launches are its own
            if guard.skip:
                set_report["lost_context_on"] = sorted(guard.skip)
        except Exception as e:  # a derived set is an extra; the task's own checks stand without it
            guard.check(e)  # but one that lost the device context ends the request: asked again without it
            if shared and isinstance(e, torch.cuda.OutOfMemoryError):
                raise device_full(e) from None  # but not one that the harness's load took away
            set_report = {"error": f"{type(e).__name__}: {e}"[:300]}
        print(f"reference {req.get('name') or req.get('task_key')} input sets in {time.monotonic() - t_sets:.2f} s: "
              f"{set_report}", file=sys.stderr, flush=True)
    found, ok, _ = judge.result()
    return {"shapes": kept, "dropped_shapes": dropped, "hygiene": found, "ok": ok,
            "code_hash": code_hash, "atol": atol, "rtol": rtol, "seeds": seeds, "secret_seeds": secrets,
            "metas": metas, "footprint": footprints, "shape_seeds": checked,
            "recompute": recompute, "recompute_for_disk": for_disk, "input_sets": sets, "set_atols": set_atols,
            "input_set_choice": set_report}

