"""Derived input sets: inputs made from the task's own by a pure function, checked besides them.

A task's `get_inputs()` may draw from a distribution on which a wrong answer is right: KernelBench's ReLU,
LeakyReLU, ELU and HardTanh draw `torch.rand` (all >= 0), on which each of them is the identity, so a kernel
that copies its input passed. The reference is run on derived sets, and a set is kept for a task only where
it tells something the task's own inputs do not (choose()). Candidate and reference make a derived set the
same way: derive(task inputs of the check's secret seed, set name, seed), on the same device.

Sets (float tensors only; integer, bool and index inputs are never changed):
  signed  an input that is all >= 0 is mapped x -> 2x - max(x) (torch.rand's [0, 1) becomes [-1, 1))
  wide    signed, times 256 (exact in every float format): overflow, cancellation and saturation show
          (a softmax without its max subtraction overflows; the reference's does not)
"""

SETS = ("signed", "wide")
WIDE = 256.0
SEEDS = 1  # seeds a kept set is checked at (the reference is judged on two)


def derive(inputs, name, seed=None):
    """The inputs of set `name`, a pure function of the task's inputs (themselves a function of the check's
    secret seed; `seed` is accepted so a set may draw from it, none does yet). "task" (or None): unchanged."""
    import torch
    if name in (None, "task"):
        return inputs
    if name not in SETS:
        raise ValueError(f"unknown input set {name!r} (known: task, {', '.join(SETS)})")
    out = []
    for t in inputs:
        if isinstance(t, torch.Tensor) and t.is_floating_point() and t.numel():
            x = t
            fin = x[torch.isfinite(x)]
            if fin.numel() and bool(fin.min() >= 0) and bool(fin.max() > 0):
                x = x * 2 - fin.max()
            if name == "wide":
                x = x * WIDE
            out.append(x.to(t.dtype))
        else:
            out.append(t)
    return out


def changed(a, b):
    import torch
    return any(isinstance(x, torch.Tensor) and not (x.shape == y.shape and torch.equal(x, y)) for x, y in zip(a, b))


def identity_of(inputs, outs):
    """Index of an input that some output equals exactly (the reference returned it unchanged), or None."""
    import torch
    for o in outs:
        for k, t in enumerate(inputs):
            if isinstance(t, torch.Tensor) and t.shape == o.shape and t.dtype == o.dtype and torch.equal(t, o):
                return k
    return None


def same(a, b, atol, rtol):
    """Whether two calls' outputs agree within the tolerance (a wrong answer could not tell them apart)."""
    from .hygiene import differ
    return len(a) == len(b) and not differ(a, b, atol, rtol)


def floats(inputs):
    import torch
    return [k for k, t in enumerate(inputs) if isinstance(t, torch.Tensor) and t.is_floating_point() and t.numel()]


def choose(run, inputs_of, seeds, atol, rtol):
    """Which derived sets to check a task on, and the weaknesses of its own inputs, from runs of the
    reference at two seeds. run(inputs) -> list of output tensors; inputs_of(seed) -> the task's inputs.

    A set is kept when it changes some input, the reference's output on it is finite, not within the
    tolerance of zero everywhere, and differs between the seeds; `wide` only when its output is not the
    signed one scaled (256^p, p = 0..2: nothing new for a linear or homogeneous op). Weaknesses on the
    task's inputs (hygiene notes, not fatal): the output is one of the inputs unchanged at both seeds
    (REF_IDENTITY_ON_INPUTS), or does not move when one input is swapped for another seed's
    (REF_INSENSITIVE_INPUT, `input` names it; only for tasks with several float inputs). Each note says
    which kept set separates it. Returns (kept names, notes, per-set reasons for the dropped)."""
    import torch
    from . import hygiene
    zero_tol = atol / max(1e-12, 1.0 - rtol)
    seeds = list(seeds)[:2]
    xs = [inputs_of(sd) for sd in seeds]
    two = len(xs) == 2
    info = {name: {"ok": True, "fps": [], "ident": [], "insens": set(), "why": None} for name in ("task",) + SETS}
    fl = floats(xs[0])
    for i, x in enumerate(xs):
        o_prev = None  # the output wide is compared with: the signed set's, or the task's where signed is dropped
        for name in ("task",) + SETS:
            st = info[name]
            if not st["ok"]:
                continue
            d = derive(x, name, seeds[i])
            if name != "task" and not changed(d, x):
                st["ok"], st["why"] = False, "it leaves the task's inputs as they are"
                continue
            with torch.no_grad():
                o = run(d)
            if name != "task":
                if any(t.is_floating_point() and not bool(torch.isfinite(t).all()) for t in o):
                    st["ok"], st["why"] = False, "the reference's output on it is not finite"
                    continue
                if all(bool((t.double().abs() <= zero_tol).all()) for t in o if t.numel()):
                    st["ok"], st["why"] = False, "the reference's output on it is within the tolerance of zero"
                    continue
            if name == "wide" and o_prev is not None and any(
                    same(o, [t.double() * WIDE ** p for t in o_prev], atol, rtol) for p in (0, 1, 2)):
                st["ok"], st["why"] = False, "the reference's output on it is the signed (or task's) output, scaled"
                continue
            if name in ("task", "signed"):
                o_prev = o
            st["fps"].append([s["fp"] for s in hygiene.stats(o, atol, rtol)])
            st["ident"].append(identity_of(d, o))
            if i == 0 and two and len(fl) > 1:
                other = derive(xs[1], name, seeds[1])
                for k in fl:
                    swapped = list(d)
                    swapped[k] = other[k]
                    with torch.no_grad():
                        if same(o, run(swapped), atol, rtol):
                            st["insens"].add(k)
            if name not in ("task", "signed"):
                del o
        del o_prev
    for name in SETS:
        st = info[name]
        if st["ok"] and two and len(st["fps"]) == 2 and st["fps"][0] == st["fps"][1]:
            st["ok"], st["why"] = False, "the reference's output on it is the same for both seeds"
    kept = [n for n in SETS if info[n]["ok"]]
    notes = []
    t = info["task"]
    ident = t["ident"][0] if t["ident"] and all(k is not None for k in t["ident"]) else None
    if ident is not None:
        fix = [n for n in kept if not all(k is not None for k in info[n]["ident"])]
        lo = float(xs[0][ident].min()) if xs[0][ident].numel() else 0.0
        notes.append({"code": "REF_IDENTITY_ON_INPUTS", "input": ident, "separated_by": fix,
                      "message": f"the reference returns input {ident} unchanged on the task's own inputs"
                                 + (" (all >= 0)" if lo >= 0 else "") + ": a kernel that copies it would pass"
                                 + (f"; the derived set `{fix[0]}` separates" if fix else
                                    "; no derived input set separates")})
    for k in sorted(t["insens"]):
        fix = [n for n in kept if k not in info[n]["insens"]]
        notes.append({"code": "REF_INSENSITIVE_INPUT", "input": k, "separated_by": fix,
                      "message": f"the reference's output does not change when input {k} is replaced on the "
                                 "task's own inputs: a kernel that ignores it would pass"
                                 + (f"; the derived set `{fix[0]}` separates" if fix else
                                    "; no derived input set separates")})
    dropped = {n: info[n]["why"] for n in SETS if not info[n]["ok"]}
    return kept, notes, dropped
