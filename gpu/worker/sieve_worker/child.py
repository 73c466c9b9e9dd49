"""The candidate child: forked from the warm worker, sandboxed, then compile -> correct -> proof -> timing.

It only sends data (outputs as raw array bytes, launch counts, timings) on its result pipe; the worker
compares and decides. Everything it needs from torch for measuring is captured before the candidate's
code runs, so later monkey-patching by the candidate does not reach the measurement.
"""
import contextlib
import fcntl
import os
import re
import sys
import time
import traceback

from . import frames, sandbox, taskref, timing
from .hooks import LaunchHook, OutOfBounds

PROBE_SEED_OFFSET = 7919


def classify(exc, interpreted):
    """Reason code for an exception raised while building or running the candidate."""
    chain, e = [], exc
    while e is not None and len(chain) < 10:
        chain.append(e)
        e = e.__cause__ or e.__context__
    for e in chain:
        if isinstance(e, OutOfBounds):
            return "OUT_OF_BOUNDS"
        if isinstance(e, MemoryError):
            return "MEMORY_LIMIT"
        if isinstance(e, PermissionError) and "sieve sandbox" in str(e):
            return "SANDBOX"
        name = type(e).__name__
        if name in ("CompilationError", "CompileTimeAssertionFailure", "UnsupportedLanguageConstruct"):
            return "COMPILE_ERROR"
        if "illegal memory access" in str(e) or "misaligned address" in str(e):
            return "ILLEGAL_ADDRESS"
    if interpreted:
        # under TRITON_INTERPRET a kernel that would not compile fails inside triton.language while it runs
        for e in chain:
            tb = e.__traceback__
            last = None
            while tb is not None:
                last = tb.tb_frame.f_code.co_filename
                tb = tb.tb_next
            if last and os.sep + "triton" + os.sep + "language" + os.sep in last:
                return "COMPILE_ERROR"
    return "RUNTIME_ERROR"


@contextlib.contextmanager
def poisoned_allocations(torch):
    """Makes torch's uninitialised allocators return NaN-filled (or max-int-filled) memory for a while."""
    names = ("empty", "empty_like", "empty_strided")
    saved = {n: getattr(torch, n) for n in names}
    saved_new_empty = torch.Tensor.new_empty

    def poison(t):
        if t.is_floating_point() or t.is_complex():
            t.fill_(float("nan"))
        elif t.dtype == torch.bool:
            t.fill_(True)
        else:
            t.fill_(torch.iinfo(t.dtype).max)
        return t

    def wrap(fn):
        return lambda *a, **k: poison(fn(*a, **k))

    try:
        for n in names:
            setattr(torch, n, wrap(saved[n]))
        torch.Tensor.new_empty = lambda self, *a, **k: poison(saved_new_empty(self, *a, **k))
        yield
    finally:
        for n in names:
            setattr(torch, n, saved[n])
        torch.Tensor.new_empty = saved_new_empty


class Child:
    def __init__(self, fd, ctl_fd, lock_fd, ctx):
        self.fd = fd
        self.ctl = ctl_fd
        self.lock_fd = lock_fd
        self.ctx = ctx  # dict: see Worker.start_job
        self.interpreted = ctx["device"] == "cpu"

    def send(self, obj):
        frames.send_json(self.fd, obj)

    def stage(self, name):
        self.send({"t": "stage", "stage": name})

    def send_arrays(self, header, tensors):
        metas, blobs = [], []
        for t in tensors:
            dt, arr = taskref.to_numpy(t)
            metas.append({"dtype": dt, "np": arr.dtype.str, "shape": list(arr.shape)})
            blobs.append(arr.tobytes())
        header["meta"] = metas
        self.send(header)
        for b in blobs:
            frames.send_bytes(self.fd, b)

    def run(self):
        ctx = self.ctx
        # the task is trusted: load it before the sandbox narrows what the process may read
        task = taskref.load_module(ctx["task_path"], "sieve_task")
        applied = sandbox.apply(
            ctx["scratch"], [self.fd, self.ctl, self.lock_fd] + ([1, 2]), ctx["limits"], self.interpreted,
            ctx["allowed_dirs"], lambda code, detail: self.send({"t": "violation", "code": code, "detail": detail}),
            ctx["env"], ctx["cpu_seconds"], ctx["nproc"], need_paths=[ctx["candidate_path"]] + ctx["allowed_dirs"])
        self.send({"t": "sandbox", "applied": applied})
        import torch
        torch.set_num_threads(max(1, ctx.get("threads", 1)))
        # measurement tools captured before the candidate can touch them
        self.sync = torch.cuda.synchronize if not self.interpreted else (lambda: None)
        self.Event = torch.cuda.Event if not self.interpreted else None
        self.record = torch.cuda.Event.record if not self.interpreted else None
        self.elapsed = torch.cuda.Event.elapsed_time if not self.interpreted else None
        self.perf = time.perf_counter
        self.tensor_type = torch.Tensor
        self.is_tensor = torch.is_tensor
        self.no_grad = torch.no_grad
        self.call = lambda m, a: m(*a)
        self.equal = torch.equal
        device = torch.device(ctx["device"])
        if device.type == "cuda":
            # Triton launches on the current device, and a candidate's "cuda" means the current device:
            # with one worker per GPU that must be this worker's GPU, not GPU 0.
            try:
                torch.cuda.set_device(device)
                torch.empty(1, device=device)
                torch.cuda.synchronize(device)
            except BaseException as e:
                # no candidate code has run yet: the machine's fault, not the sample's (the worker retries)
                self.send({"t": "infra", "message": f"{type(e).__name__}: {e}"[:500]})
                return
        self.device = device
        self.stage("compile")
        self.cuda_names = None
        if ctx.get("backend") == "cuda":
            # CUDA extension kernels are not Triton launches: count them by name in the profiler instead
            with open(ctx["candidate_path"]) as f:
                src = f.read()
            self.cuda_names = sorted(set(re.findall(
                r"__global__\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?void\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?(\w+)", src)))
        hook = LaunchHook(ctx["candidate_path"])
        hook.install()
        hook.Event, hook.record = self.Event, self.record
        self.hook = hook
        style = ctx["style"]
        try:
            cand = taskref.load_module(ctx["candidate_path"], ctx["candidate_module"])
            model_new_cls = getattr(cand, "ModelNew")
        except BaseException as e:  # the module itself does not build
            self.error("compile", "COMPILE_ERROR" if not isinstance(e, PermissionError) else classify(e, True), e)
            return
        first = True
        kept = []  # outputs stay alive until the probe, so their memory cannot be handed out again
        state_report = None
        fwd_seconds = 0.0
        in_forward = False
        for si, shape in enumerate(ctx["shapes"]):
            taskref.apply_shape(task, shape)
            new_model = None  # one instance per shape, called for every seed: state kept across calls shows
            for seed in ctx["seeds"]:
                try:
                    ref_model = taskref.build(task, task.Model, seed, style)
                    if new_model is None:
                        new_model = taskref.build(task, model_new_cls, seed, style).to(device).eval()
                    res = new_model.load_state_dict(ref_model.state_dict(), strict=False)
                    if state_report is None:
                        state_report = {"missing": list(res.missing_keys), "unexpected": list(res.unexpected_keys)}
                        self.send({"t": "state_dict", **state_report})
                    del ref_model
                    inputs = [t.to(device) if isinstance(t, torch.Tensor) else t
                              for t in taskref.make_inputs(task, seed)]
                    saved = [t.clone() if isinstance(t, torch.Tensor) else t for t in inputs]
                    before = hook.launches
                    in_forward = True
                    t0 = self.perf()
                    out = self.forward_counted(new_model, inputs)
                    fwd_seconds += self.perf() - t0
                    if first:
                        self.stage("correct")
                        first = False
                    in_forward = False
                    outs = taskref.flatten_outputs(out)
                    plain = all(type(o) is self.tensor_type for o in outs)
                    mutated = any(isinstance(a, torch.Tensor) and
                                  not (a.shape == b.shape and self.equal(torch.nan_to_num(a.detach()), torch.nan_to_num(b)))
                                  for a, b in zip(inputs, saved))
                    header = {"t": "output", "si": si, "seed": seed, "launches": hook.launches - before,
                              "plain": plain, "mutated": mutated,
                              "overlap": (all(hook.overlaps(o) for o in outs if plain)
                                          if self.cuda_names is None else None)}
                    if plain:
                        self.send_arrays(header, [o.detach() for o in outs])
                    else:
                        self.send({**header, "meta": None, "types": [type(o).__name__ for o in outs]})
                    kept.append(outs)
                except BaseException as e:
                    code = classify(e, self.interpreted)
                    self.error("correct" if in_forward and code != "COMPILE_ERROR" else "compile", code, e)
                    return
        self.stage("proof")
        self.probe(task, model_new_cls, style, fwd_seconds)
        if ctx["timing"] and not self.interpreted:
            self.send({"t": "timing_request"})
            answer = os.read(self.ctl, 1)
            if answer == b"G":
                try:
                    self.timing(task, model_new_cls, style)
                except BaseException as e:
                    self.error("timing", classify(e, False), e)
                    return
        self.send({"t": "done", "launches": hook.launches, "kernels": sorted(hook.names)})

    def forward_counted(self, model, inputs):
        import torch
        if self.cuda_names is None:
            with torch.no_grad():
                out = model(*inputs)
            self.sync()
            return out
        from torch.profiler import ProfilerActivity, profile
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            with torch.no_grad():
                out = model(*inputs)
            self.sync()
        for ev in prof.events():
            if "CUDA" in str(getattr(ev, "device_type", "")):
                hit = [k for k in self.cuda_names if k in ev.name]
                if hit:
                    self.hook.launches += 1
                    self.hook.names.update(hit)
        return out

    def error(self, stage, code, exc):
        self.send({"t": "error", "stage": stage, "code": code, "message": f"{type(exc).__name__}: {exc}"[:2000],
                   "traceback": "".join(traceback.format_exception(exc))[-8000:]})

    def probe(self, task, model_new_cls, style, fwd_seconds):
        """Runs one fresh input twice: normally, then with the candidate's kernels turned into no-ops. An
        output that comes out the same without the kernels was not produced by them."""
        import torch
        ctx, hook = self.ctx, self.hook
        taskref.apply_shape(task, ctx["shapes"][0])
        seed = ctx["seeds"][0] + PROBE_SEED_OFFSET
        share = None
        if self.cuda_names is not None:
            # no way to turn an extension's kernels into no-ops: the launch count and GPU share must do
            try:
                ref_model = taskref.build(task, task.Model, seed, style)
                model = taskref.build(task, model_new_cls, seed, style)
                model.load_state_dict(ref_model.state_dict(), strict=False)
                model = model.to(self.device).eval()
                inputs = [t.to(self.device) if isinstance(t, torch.Tensor) else t
                          for t in taskref.make_inputs(task, seed)]
                share = self.gpu_share(model, inputs)
            except BaseException as e:
                self.send({"t": "note", "message": f"profiling the CUDA answer failed: {e}"[:300]})
            self.send({"t": "probe", "cuda": True, "share": share})
            return
        try:
            ref_model = taskref.build(task, task.Model, seed, style)
            model = taskref.build(task, model_new_cls, seed, style)
            model.load_state_dict(ref_model.state_dict(), strict=False)
            model = model.to(self.device).eval()
            inputs = [t.to(self.device) if isinstance(t, torch.Tensor) else t for t in taskref.make_inputs(task, seed)]
            clones = [t.clone() if isinstance(t, torch.Tensor) else t for t in inputs]
            profile_inputs = [t.clone() if isinstance(t, torch.Tensor) else t for t in inputs]
            with torch.no_grad():
                a = taskref.flatten_outputs(model(*inputs))
            self.sync()
            # The no-op run comes before anything else on these inputs and its allocations are poisoned:
            # otherwise an output buffer from torch.empty could be handed a freed block that still holds
            # a correct result (the caching allocator reuses same-sized blocks), and an honest kernel would
            # look like a sham.
            hook.suppress = True
            try:
                with torch.no_grad(), poisoned_allocations(torch):
                    b = taskref.flatten_outputs(model(*clones))
                self.sync()
            finally:
                hook.suppress = False
            if not self.interpreted:
                share = self.event_share(model, profile_inputs)
        except BaseException as e:
            # the forward cannot run without its kernels: its output depends on them
            self.send({"t": "probe", "error": f"{type(e).__name__}: {e}"[:500], "share": share})
            return
        if share is None and fwd_seconds > 0:
            share = min(1.0, hook.seconds / fwd_seconds)
        plain = all(type(o) is self.tensor_type for o in a + b)
        if not plain or len(a) != len(b):
            self.send({"t": "probe", "error": "outputs are not plain tensors", "share": share})
            return
        self.send_arrays({"t": "probe", "n": len(a), "share": share}, [o.detach() for o in a + b])

    def event_share(self, model, inputs):
        """The candidate's kernels' share of GPU time in one forward, from CUDA events recorded around each
        of its launches (the launch hook) and around the whole forward. Cheaper than the profiler, whose
        CUPTI start-up costs seconds per child; an upper bound where the GPU waits on a launch."""
        hook = self.hook
        try:
            args = [t.clone() if self.is_tensor(t) else t for t in inputs]
            start, end = self.Event(enable_timing=True), self.Event(enable_timing=True)
            self.sync()
            hook.timer = []
            self.record(start)
            with self.no_grad():
                self.call(model, args)
            self.record(end)
            self.sync()
            pairs, hook.timer = hook.timer, None
            total = self.elapsed(start, end)
            mine = sum(self.elapsed(a, b) for a, b in pairs)
            self.send({"t": "profile", "kernels_seen": bool(pairs), "method": "events"})
            return min(1.0, mine / total) if total > 0 else None
        except Exception as e:
            hook.timer = None
            self.send({"t": "profile", "error": str(e)[:300]})
            return None

    def gpu_share(self, model, inputs):
        """The candidate's kernels' share of GPU time in one forward, from the profiler."""
        import torch
        from torch.profiler import ProfilerActivity, profile
        try:
            args = [t.clone() if isinstance(t, torch.Tensor) else t for t in inputs]
            self.sync()
            with profile(activities=[ProfilerActivity.CUDA]) as prof:
                with torch.no_grad():
                    model(*args)
                self.sync()
            total = mine = 0.0
            for ev in prof.events():
                dt = getattr(ev, "device_time", None)
                if dt is None:
                    dt = getattr(ev, "cuda_time", 0.0)
                dtype = str(getattr(ev, "device_type", ""))
                if "CUDA" not in dtype or not dt:
                    continue
                total += dt
                if any(ev.name == n or ev.name.startswith(n) or (self.cuda_names and n in ev.name)
                       for n in self.hook.names):
                    mine += dt
            self.send({"t": "profile", "kernels_seen": total > 0})
            return mine / total if total > 0 else None
        except Exception as e:
            self.send({"t": "profile", "error": str(e)[:300]})
            return None

    def timing(self, task, model_new_cls, style):
        """Times the candidate alone; the worker times the reference (eager and torch.compile) once per
        task in a trusted child, on the same shape and input sets, under the same lock."""
        import torch
        ctx = self.ctx
        taskref.apply_shape(task, ctx["shapes"][0])
        seed = ctx["seeds"][0]
        ref_model = taskref.build(task, task.Model, seed, style)
        model = taskref.build(task, model_new_cls, seed, style)
        model.load_state_dict(ref_model.state_dict(), strict=False)
        del ref_model
        model = model.to(self.device).eval()
        sets = [[t.to(self.device) if isinstance(t, torch.Tensor) else t for t in taskref.make_inputs(task, seed + k)]
                for k in range(3)]
        tools = timing.Tools(self.sync, self.Event, self.record, self.elapsed, self.perf, self.device,
                             ctx.get("l2_bytes") or (50 << 20))
        self.stage("queue")  # waiting for the GPU is not the sample's time
        fcntl.flock(self.lock_fd, fcntl.LOCK_EX)
        self.stage("timing")
        try:
            results = [{"shape_index": 0, "which": "candidate", **timing.measure(tools, model, sets, **ctx.get("timing_limits", {}))}]
        finally:
            fcntl.flock(self.lock_fd, fcntl.LOCK_UN)
        self.send({"t": "timings", "timings": results})


def main(fd, ctl_fd, lock_fd, ctx):
    """Entry point after fork; never returns."""
    code = 0
    try:
        Child(fd, ctl_fd, lock_fd, ctx).run()
    except BaseException as e:
        try:
            frames.send_json(fd, {"t": "error", "stage": "compile", "code": "RUNTIME_ERROR",
                                  "message": f"{type(e).__name__}: {e}"[:2000],
                                  "traceback": "".join(traceback.format_exception(e))[-8000:]})
        except BaseException:
            pass
        code = 3
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        pass
    os._exit(code)
