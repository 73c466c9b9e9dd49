"""Task modules: loading, shape overrides, derived shapes, inputs, reference outputs and task hygiene.

Used by the worker (reference child) and by the candidate child, so both build inputs the same way:
seed -> get_init_inputs() -> Model(...) -> seed -> get_inputs().
"""
import ast
import hashlib
import importlib.util
import json
import os
import sys

import numpy as np

TOLERANCES = {"fp32": 1e-4, "fp16": 1e-2, "bf16": 1e-2}


def load_module(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod  # dataclasses and triton look modules up by name
    spec.loader.exec_module(mod)
    return mod


def size_constants(code):
    """Module-level int constants (> 1) that get_inputs/get_init_inputs read: the task's sizes."""
    tree = ast.parse(code)
    consts = {}
    used = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            v = node.value
            if isinstance(v, ast.Constant) and type(v.value) is int and v.value > 1:
                consts[node.targets[0].id] = v.value
        if isinstance(node, ast.FunctionDef) and node.name in ("get_inputs", "get_init_inputs"):
            for sub in ast.walk(node):
                if isinstance(sub, ast.Name):
                    used.add(sub.id)
    return {k: v for k, v in consts.items() if k in used}


def nearby_non_power_of_two(v):
    if v <= 8 or v & (v - 1):
        return v
    return v - max(1, v // 42)  # 1024 -> 1000, 4096 -> 3999, 64 -> 63, 16 -> 15


def derive_shape(consts):
    derived = {k: nearby_non_power_of_two(v) for k, v in consts.items()}
    return derived if derived != consts else None


def input_elements(mod, shape, seed):
    import torch
    apply_shape(mod, shape)
    return sum(t.numel() for t in make_inputs(mod, seed) if isinstance(t, torch.Tensor))


def scale_down(mod, shape, limit, seed):
    """CPU mode: halve the largest size constant (> 8) until the inputs hold at most `limit` elements, so
    the Triton interpreter (one Python pass per program instance) finishes in seconds."""
    shape = dict(shape)
    for _ in range(64):
        try:
            if input_elements(mod, shape, seed) <= limit:
                return shape
        except Exception:
            return shape  # the reference pass reports the failure
        big = [k for k, v in shape.items() if v > 8]
        if not big:
            return shape
        k = max(big, key=lambda n: shape[n])
        shape[k] = max(8, shape[k] // 2)
    return shape


def apply_shape(mod, shape):
    for k, v in (shape or {}).items():
        setattr(mod, k, v)


def split_init(init, style):
    init = list(init) if init is not None else []
    if style == "kernelbook" and len(init) == 2 and isinstance(init[0], (list, tuple)) and isinstance(init[1], dict):
        return list(init[0]), dict(init[1])
    return init, {}


def build(mod, cls, seed, style):
    import torch
    torch.manual_seed(seed)
    init = mod.get_init_inputs() if hasattr(mod, "get_init_inputs") else []
    args, kwargs = split_init(init, style)
    torch.manual_seed(seed)
    return cls(*args, **kwargs)


def make_inputs(mod, seed):
    import torch
    torch.manual_seed(seed)
    return list(mod.get_inputs())


def flatten_outputs(out):
    import torch
    if isinstance(out, (tuple, list)):
        res = []
        for o in out:
            res += flatten_outputs(o)
        return res
    if isinstance(out, torch.Tensor):
        return [out]
    raise TypeError(f"output of type {type(out).__name__} is not a tensor")


def to_numpy(t):
    """(dtype name, array). bf16 travels as float32; the dtype name keeps what it was."""
    import torch
    name = str(t.dtype).replace("torch.", "")
    t = t.detach().cpu().contiguous()
    if t.dtype == torch.bfloat16:
        t = t.float()
    return name, t.numpy()


def cache_path(cache_dir, task_key, code_hash, shape, seed):
    h = hashlib.sha256(json.dumps([task_key, code_hash, shape, seed, "cpu"], sort_keys=True).encode()).hexdigest()[:32]
    return os.path.join(cache_dir, "refs", f"{h}.npz")


def save_ref(path, outs):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    arrays = {f"o{i}": a for i, (_, a) in enumerate(outs)}
    tmp = path + f".tmp{os.getpid()}.npz"
    np.savez(tmp, __meta__=np.frombuffer(json.dumps([d for d, _ in outs]).encode(), dtype=np.uint8), **arrays)
    os.replace(tmp, path)


def load_ref(path):
    with np.load(path) as z:
        dtypes = json.loads(bytes(z["__meta__"]).decode())
        return [(d, z[f"o{i}"]) for i, d in enumerate(dtypes)]


def compute_references(req, task_path, cache_dir):
    """Runs in a trusted forked child: computes (or finds cached) references for every shape and seed and
    returns the summary the worker turns into task_ready. Reference outputs land in cache_dir/refs."""
    import torch
    torch.set_num_threads(max(1, min(4, os.cpu_count() or 1)))
    code = req["reference_code"]
    code_hash = hashlib.sha256(code.encode()).hexdigest()
    style = req.get("init_inputs_style", "kernelbench")
    seeds = list(req.get("seeds") or [0, 1, 2, 3, 4])
    while len(seeds) < 5:  # the ladder's floor: at least 5 seeds, whatever the request says
        seeds.append(max(seeds) + 1)
    dtype = req.get("dtype", "fp32")
    atol = req.get("atol", TOLERANCES.get(dtype, 1e-4))
    rtol = req.get("rtol", TOLERANCES.get(dtype, 1e-4))
    max_bytes = int(req.get("max_task_bytes", 1 << 30))
    mod = load_module(task_path, "sieve_task_" + code_hash[:12])
    consts = size_constants(code)
    shapes = [{"shape": dict(consts), "origin": "module"}]
    for s in req.get("shapes") or []:
        shapes.append({"shape": {**consts, **s}, "origin": "task"})
    if not req.get("shapes"):
        d = derive_shape(consts)
        if d:
            shapes.append({"shape": d, "origin": "derived"})
    kept, dropped, hygiene = [], [], []
    limit = req.get("cpu_max_elements")
    if limit:
        for sh in shapes:
            small = scale_down(mod, sh["shape"], int(limit), seeds[0])
            if small != sh["shape"]:
                dropped.append({"shape": sh["shape"], "reason": f"too large for the CPU interpreter (over {limit} "
                                                                f"input elements): scaled down to {small}"})
                sh["shape"] = small
    maxabs, nonfinite, constant_all = 0.0, False, True
    for si, sh in enumerate(shapes):
        apply_shape(mod, sh["shape"])
        per_seed, err = [], None
        try:
            for seed in seeds:
                path = cache_path(cache_dir, req["task_key"], code_hash, sh["shape"], seed)
                if os.path.exists(path):
                    outs = load_ref(path)
                else:
                    model = build(mod, mod.Model, seed, style).eval()
                    inputs = make_inputs(mod, seed)
                    nbytes = sum(t.numel() * t.element_size() for t in inputs if isinstance(t, torch.Tensor))
                    with torch.no_grad():
                        raw = flatten_outputs(model(*inputs))
                        nbytes += sum(t.numel() * t.element_size() for t in raw)
                        if nbytes > max_bytes:
                            raise MemoryError(f"inputs and outputs take {nbytes} bytes, over the limit {max_bytes}")
                        outs = [to_numpy(t) for t in raw]
                        if seed == seeds[0]:
                            again = [to_numpy(t) for t in flatten_outputs(model(*inputs))]
                            for (_, a), (_, b) in zip(outs, again):
                                diff = np.abs(a.astype(np.float64) - b.astype(np.float64))
                                tol = atol + rtol * np.abs(b.astype(np.float64))
                                if np.any(diff[np.isfinite(diff)] > tol[np.isfinite(diff)]):
                                    hygiene.append({"code": "REF_NONDETERMINISTIC",
                                                    "message": f"two runs of the reference on shape {sh['shape']} differ"})
                                    break
                    save_ref(path, outs)
                per_seed.append(outs)
        except MemoryError as e:
            err = ("REF_TOO_LARGE", str(e))
        except Exception as e:  # the task's own code failed on this shape
            err = ("REF_FAILED", f"{type(e).__name__}: {e}")
        if err:
            if sh["origin"] == "module":
                hygiene.append({"code": err[0], "message": f"the reference fails on its own shape: {err[1]}"})
                return {"shapes": [], "dropped_shapes": [], "hygiene": hygiene, "ok": False}
            dropped.append({"shape": sh["shape"], "reason": f"{err[0]}: {err[1]}"})
            continue
        for outs in per_seed:
            for _, a in outs:
                if a.dtype.kind in "fc":
                    fin = np.isfinite(a)
                    if not fin.all():
                        nonfinite = True
                    if fin.any():
                        maxabs = max(maxabs, float(np.abs(a[fin]).max()))
                else:
                    maxabs = max(maxabs, float(np.abs(a.astype(np.float64)).max()) if a.size else 0.0)
        varies = any(any(not np.array_equal(a, b, equal_nan=True) for (_, a), (_, b) in zip(per_seed[0], o))
                     for o in per_seed[1:])
        flat = all(a.size <= 1 or np.all(a == a.flat[0]) for _, a in per_seed[0])
        if varies and not flat:
            constant_all = False
        kept.append(sh["shape"])
    if nonfinite:
        hygiene.append({"code": "REF_NONFINITE", "message": "the reference output holds NaN or inf"})
    if maxabs <= atol:
        hygiene.append({"code": "REF_BELOW_TOL",
                        "message": f"the largest reference value {maxabs:.3g} is within the tolerance {atol:g}: "
                                   "an all-zero answer would pass"})
    if constant_all:
        hygiene.append({"code": "REF_CONSTANT", "message": "the reference output does not depend on the inputs"})
    ok = not any(h["code"] in ("REF_NONFINITE", "REF_BELOW_TOL", "REF_CONSTANT", "REF_NONDETERMINISTIC",
                                "REF_TOO_LARGE", "REF_FAILED") for h in hygiene)
    return {"shapes": kept, "dropped_shapes": dropped, "hygiene": hygiene, "ok": ok,
            "code_hash": code_hash, "atol": atol, "rtol": rtol, "seeds": seeds}
