"""`sieve-cli tasks check` (worker op `check_task`, run in a task server): hygiene alone on a task's reference.
Its own module, above both hygiene.py (the checks) and taskref.py (task modules), which it uses: taskref
uses hygiene, hygiene uses neither this nor taskref, so no import cycle."""
from . import hygiene, taskref
from .runmode import as_kernelbench_runs


def check_task(req, task_path, device, room=None):
    """Hygiene alone, for `sieve-cli tasks check` (worker op `check_task`): runs the reference on `device`
    at the task's own shapes (the module's, the task's listed ones or a derived one), every seed, twice on
    the first, and rules with hygiene.Judge. Nothing is cached: this pass judges the task, `verify` computes its
    references. On a GPU the inputs are made there (torch's default device): their values differ from
    the CPU's but not their distribution, which is all hygiene looks at, and a 6 GB input costs no host
    memory. On the CPU shapes shrink as the CPU verifier's do (cpu_max_elements) and what could not be
    judged at the shipped shape is said (REF_UNJUDGED_AT_SCALE). room(nbytes), when given (a task server's
    ask_room), asks the worker's admission for a large shape's device memory before it is allocated, as
    references do: a check holds one call's inputs and outputs and a second run's outputs."""
    import time
    import torch
    t0 = time.monotonic()
    code = req["reference_code"]
    dtype = req.get("dtype", "fp32")
    atol = req.get("atol", taskref.TOLERANCES.get(dtype, 1e-4))
    rtol = req.get("rtol", taskref.TOLERANCES.get(dtype, 1e-4))
    seeds = list(req.get("seeds") or [0, 1, 2, 3, 4])
    while len(seeds) < 5:
        seeds.append(max(seeds) + 1)
    style = req.get("init_inputs_style", "kernelbench")
    base = {"device": device, "atol": atol, "rtol": rtol, "seeds": seeds}

    notes = hygiene.reach_findings(code)

    def done(found, ok, shapes=()):
        return {**base, "hygiene": notes + found, "ok": ok, "shapes": list(shapes),
                "duration_ms": int((time.monotonic() - t0) * 1000)}

    found = hygiene.static_findings(code)
    if found:
        return done(found, False)
    judge = hygiene.Judge(atol, rtol)
    gpu = device != "cpu"
    if gpu:
        torch.cuda.set_device(torch.device(device))
    else:
        torch.set_num_threads(max(1, min(4, __import__("os").cpu_count() or 1)))
    try:
        mod = taskref.load_module(task_path, "sieve_check_" + req.get("task_key", "task")[:16].replace("-", "_"))
        shapes = taskref.task_shapes(mod, code, req, seeds[0])
    except Exception as e:
        judge.shape(0, {}, "module")
        return done([judge.failed(0, e)], False)
    limit = req.get("cpu_max_elements") if not gpu else None
    if limit:
        tuples = taskref.size_constants(code, tuples=True)
        for sh in shapes:
            small = taskref.scale_down(mod, sh["shape"], int(limit), seeds[0], tuples)
            if small != sh["shape"]:
                sh["scaled_from"], sh["shape"] = sh["shape"], small
    extra, peaks = [], {}
    granted = 0  # device memory admission promised this check (room); it grows to the largest shape's need
    for si, sh in enumerate(shapes):
        judge.shape(si, sh["shape"], sh["origin"], sh.get("scaled_from"))
        taskref.apply_shape(mod, sh["shape"])
        if gpu:
            torch.cuda.empty_cache()
            torch.cuda.reset_peak_memory_stats()
            if room is not None and str(device).startswith("cuda"):
                est = taskref.meta_footprint(mod, mod.Model, seeds[0], style)
                if est is not None and est[0] + est[1] > taskref.BIG_REF_BYTES:
                    need = taskref.reference_need(est)
                    if need > granted:
                        granted += room(need - granted)
        try:
            with torch.device(device) if gpu else _null():
                for seed in seeds[:sh.get("seeds", len(seeds))]:
                    model = as_kernelbench_runs(taskref.build(mod, mod.Model, seed, style).to(device))
                    inputs = [t.to(device) if isinstance(t, torch.Tensor) else t for t in taskref.make_inputs(mod, seed)]
                    with torch.no_grad():
                        outs = taskref.flatten_outputs(model(*inputs))
                        judge.add(si, seed, outs)
                        if seed == seeds[0] and hygiene.differ(outs, taskref.flatten_outputs(model(*inputs)), atol, rtol):
                            judge.nondeterministic(si)
                    del model, inputs, outs
        except Exception as e:
            if gpu and isinstance(e, torch.cuda.OutOfMemoryError):
                e = MemoryError(f"out of GPU memory at shape {hygiene.fmt_shape(sh['shape'])} ({str(e).splitlines()[0][:200]})")
            err = judge.failed(si, e)
            judge.shapes[si]["seeds"] = {}
            if sh["origin"] == "module":
                return done([err], False)
            extra.append({"code": "REF_SHAPE_DROPPED", "message": f"{err['code']}: {err['message']}"})
            continue
        if gpu:
            peaks[si] = int(torch.cuda.max_memory_allocated())
    # derived input sets, chosen as verify chooses them (taskref.set_anchor) among the shapes checked at every seed
    sets = {}
    full = [si for si, x in judge.shapes.items() if len(x["seeds"]) == len(seeds)]
    if full:
        ai = taskref.set_anchor({si: sum(o["numel"] for o in next(iter(judge.shapes[si]["seeds"].values())))
                                 for si in full}, full, {si: judge.shapes[si]["origin"] for si in full})
        try:
            with torch.device(device) if gpu else _null():
                # (not `notes`: done() reads that name, the module's reach findings, when it returns)
                kept, set_notes, why = taskref.choose_sets(mod, judge.shapes[ai]["shape"], seeds, style, device, atol,
                                                           rtol)
            judge.notes += set_notes
            sets = {"shape_index": ai, "kept": kept, "dropped": why}
        except Exception as e:
            sets = {"error": f"{type(e).__name__}: {e}"[:300]}
    found, ok, summaries = judge.result()
    for s, si in zip(summaries, sorted(i for i, x in judge.shapes.items() if x["seeds"])):
        if si in peaks:
            s["gpu_peak_bytes"] = peaks[si]
    found += extra  # like verify, a listed or derived shape the reference fails on is dropped, not fatal
    return {**done(found, ok, summaries), "input_sets": sets}


class _null:
    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False
