"""The candidate child: forked by the zygote, sandboxed, then compile -> correct -> proof -> timing.

It only sends data: a call's outputs go into the shared buffer the worker gave it (transport.py), short JSON
notes (launch counts, timings, what the outputs are) go on its result pipe; the worker compares and decides.
It runs the calls the worker asks for, one at a time, on inputs of seeds it learns only with each call.
Everything it needs from torch for measuring is captured before the candidate's code runs, so later
monkey-patching by the candidate does not reach the measurement.
"""
import faulthandler
import fcntl
import json
import os
import re
import signal
import sys
import time
import traceback

from ..extensions import extclient
from . import hooks, timing, wall
from ..sandbox import sandbox
from ..tasks import inputsets, seeds, taskref
from ..tasks.runmode import as_kernelbench_runs
from ..data import transport
from .hooks import DevicePrint, LaunchHook, OutOfBounds

def classify(exc, interpreted):
    """Reason code for an exception raised while building or running the candidate."""
    chain, e = [], exc
    while e is not None and len(chain) < 10:
        chain.append(e)
        e = e.__cause__ or e.__context__
    if any(isinstance(e, DevicePrint) for e in chain):
        return "DEVICE_PRINT"  # on the GPU triton's code generator raises it again as a CompilationError from it
    for e in chain:
        if isinstance(e, OutOfBounds):
            return "OUT_OF_BOUNDS"
        if isinstance(e, MemoryError):
            return "MEMORY_LIMIT"
        if isinstance(e, PermissionError) and "sieve sandbox" in str(e):
            return "SANDBOX"
        if isinstance(e, PermissionError) and "sieve runtime wall: refused: " in str(e):
            return "WALL_TAMPERED"  # a harness-only call of the wall's made otherwise, latched (seed, write, mapping)
        if isinstance(e, PermissionError) and "sieve runtime wall: refused to answers: " + wall.PROCESS_START in str(e):
            return "SUBPROCESS"  # ffi.cpp spawn_audit and fork_exec_guard, as the sandbox's audit hook names it
        if isinstance(e, PermissionError) and "sieve runtime wall" in str(e):
            return "RAW_MEMORY_ACCESS"  # ctypes, DLPack, a numpy view of tensor memory (wall.py)
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



def names_of(res):
    """load_state_dict's result as two lists of names, read here in the free phase, or none where the answer's
    load_state_dict returned something else: the harness iterated the answer's object in its own phase, where a
    class-level __iter__ of C callables ran Tensor.numpy as the harness's own call (redteam/wall2
    h_r14_state_report_iter_numpy_gadget)."""
    fields = [getattr(res, "missing_keys", None), getattr(res, "unexpected_keys", None)] if isinstance(
        res, tuple) else [None, None]
    return [list(f) if type(f) is list and all(type(k) is str for k in f) else [] for f in fields]

class Child:
    def __init__(self, ctx, fds):
        self.fd = fds["result"]
        self.ctl = fds["ctl"]
        self.lock_fd = fds["lock"]
        self.out_fd = fds["out"]
        self.ctx = ctx  # dict: see Worker.candidate_ctx
        self.interpreted = ctx["device"] == "cpu"
        self.ctl_buf = [b""]  # what was read of the control pipe and not used yet (a holder: Wall.hold)
        self.kernel_cache = {}  # own_kernel_names's: the mapped objects and their kernel names
        self.writer = transport.Writer(self.out_fd, ctx["out_size"], self.fd)

    def send(self, obj):
        self.writer.send(obj)

    def stage(self, name):
        self.send({"t": "stage", "stage": name})

    def command(self):
        """The worker's next instruction (one JSON line on the control pipe; the worker is trusted)."""
        buf = self.ctl_buf
        while b"\n" not in buf[0]:
            data = os.read(self.ctl, 65536)
            if not data:
                raise SystemExit(0)  # the worker has gone or given up on this job
            buf[0] += data
        line, buf[0] = buf[0].split(b"\n", 1)
        return json.loads(line)

    def inputs_for(self, task, seed, input_set=None, shape=None, last=True):
        """The task's inputs for a (secret) seed, made on the device where the task allows (factory calls
        inside get_inputs allocate there), exactly as the reference child made them; a derived input set
        (the call's "set") made from them as the reference made it (inputsets). `last`: the last inputs made
        before the answer's calls (the timing makes one set per seed first): from then on the harness's phase
        computes nothing (Wall.inputs_made)."""
        collecting = transport._GC[0]()
        transport._GC[1]()  # no collection while they are made: no finalizer of the answer's runs in between
        try:
            if shape is not None:
                # the shape again, after the answer's constructor: its variables are in no snapshot (the harness
                # sets them), and apply_shape takes plain values only
                taskref.apply_shape(task, shape)
            inputs = taskref.set_inputs(task, seed, self.device, input_set)
        finally:
            if collecting:
                transport._GC[2]()
        if self.wall is not None and last:
            self.wall.inputs_made()  # from here to the write, compute in the harness's phase is the answer's
        self.reseed()
        return inputs

    def seed_for(self, si):
        """The call's seed (sealed for the wall where one runs: seeds.seed_torch), sent once the answer's
        constructor and load_state_dict (the free phase, where it may compute) are over: no code of the answer's that
        runs before then holds it, so none can have the harness seed torch with it and draw the check's inputs into a
        tensor of its own for the free phase to compute on (redteam/wall2 h_seed_gadget_draw_before_free). The wall
        tells the worker the free phase is over (its "built" line at the transition: a line the answer forges
        earlier is followed by the wall's, h_r7_forged_built_early_seed); without a wall the child asks."""
        if self.wall is None:
            self.send({"t": "built", "si": si})
        cmd = self.command()
        if cmd.get("do") != "seed":
            raise RuntimeError(f"the worker sent {str(cmd.get('do'))[:40]!r} where the call's seed was due")
        return cmd["seed"]

    def reseed(self):
        """torch's generators (CPU and every CUDA device) from an unpredictable seed: torch.initial_seed() and
        the generators' state must not tell the sample which (secret) seed its inputs came from, nor let it
        make them again (redteam/wall2 h_seed_lsd_override)."""
        self.torch.manual_seed(self.random_seed())

    @staticmethod
    def random_seed():
        return int.from_bytes(os.urandom(8), "little") >> 1

    def run(self):
        ctx = self.ctx
        # the task is trusted; the sandbox (main) already narrowed the process, and lets it read the task
        task = taskref.load_module(ctx["task_path"], "sieve_task")
        sandbox.task_loaded()  # what the audit hooks see from here on is the sample's, not the task's
        import torch
        self.torch = torch
        transport.bind(torch)  # the only torch its writer takes (before the wall snapshots transport's names)
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
        self.view_as = torch.Tensor.view  # as integers of the same width (same_bits)
        self.view_as_real = torch.view_as_real
        self.oom_type = torch.cuda.OutOfMemoryError
        self.reserved = torch.cuda.max_memory_reserved if not self.interpreted else (lambda d=None: 0)
        self.empty_cache = torch.cuda.empty_cache if not self.interpreted else (lambda: None)
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
        self.tools = timing.Tools(self.sync, self.Event, self.record, self.elapsed, self.perf, self.device,
                                  ctx.get("l2_bytes") or (50 << 20))
        self.flush_buf = timing.flush_buffer(self.tools)
        self.stage("compile")
        # a CUDA answer's kernels are counted in the profiler, by the exact names its own objects define
        self.cuda_names = [] if ctx.get("backend") == "cuda" else None
        hook = LaunchHook(ctx["candidate_path"])
        hook.Event, hook.record = self.Event, self.record
        self.hook = hook
        # load_inline/load build in the worker's builder, never in this process (extclient.py, builder.py)
        extclient.install(self.send, self.command, ctx.get("capability"),
                          lambda m: self.wall.on_loaded(m) if self.wall else None)
        style = ctx["style"]
        self.wall = self.start_wall(task)  # installs the launch hook through the wall
        if self.wall is False:
            return
        if self.wall is None:
            hook.install()  # no runtime wall: the hook counts in Python (the answer can reach its counts)
        else:
            # what the harness calls on its own objects and modules stays theirs from here on (Wall.hold)
            self.wall.hold(self, self.writer, hook, self.tools, self.wall)
            import torch.utils._pytree  # noqa: F401 (timing's keep)
            self.wall.hold_modules([inputsets, os, time, json, torch.utils._device, torch.utils._pytree],
                                   task, {k for shape in ctx["shapes"] for k in (shape or {})})
        # the probe's calls, taken before any of the answer loads: the wall's own functions (C, no code to swap)
        # held in this frame's locals, which no Python code can rebind
        arm, protect, probed_now = hook.harness_calls()
        try:
            cand = taskref.load_module(ctx["candidate_path"], ctx["candidate_module"])
            model_new_cls = getattr(cand, "ModelNew")
        except BaseException as e:  # the module itself does not build
            self.error("compile", "COMPILE_ERROR" if not isinstance(e, PermissionError) else classify(e, True), e)
            return
        if self.cuda_names is not None:
            try:
                self.build_extensions(task, model_new_cls, style)
            except BaseException as e:
                self.error("compile", classify(e, self.interpreted), e)
                return
        self.wall_harness()
        self.send({"t": "ready"})
        # one instance per shape, called for every seed and input set: state kept across calls shows up (a state
        # read at the first call alone: redteam inputs r29_perm_cached_first_call); one per entry had a params
        # set's entry called once, at one seed, and held its own state
        models = {}
        routes = {}  # per instance: where the reference's tensors that load_state_dict misses go (give_unloaded)
        state_report = None
        first = True
        in_forward = False
        while True:
            cmd = self.command()
            if cmd["do"] != "call":
                break
            si, weights, seed = cmd["si"], cmd["weights"], None
            probed = False
            if self.wall is not None:
                self.wall.inputs_gone()  # the last call's inputs: its reference model is built next
            try:
                taskref.apply_shape(task, ctx["shapes"][si])
                # the probe's secret poison goes to the runtime wall at once (no variable here holds it); the
                # probe's instance is built like any shape's instance, and thrown away after its call
                keep = models if cmd.get("poison") is None else {}
                arm(cmd.pop("poison", None), ctx.get("backend") == "cuda")
                # a params set: the reference's constructor's constants varied, as the reference's own were
                ref_model, varied = taskref.build_varied(task, task.Model, None, style, weights, cmd.get("set"))
                # the check's seed makes its inputs; the models are built under weight_seed(seed), a one-way
                # function of it (taskref.build), which the worker sends before the seed: none of the answer's
                # code runs with torch seeded by the inputs' seed. Its weights are the reference's by seeding and
                # copied by load_state_dict
                self.reseed()
                new_model = keep.get(self.shape_key(si))
                self.wall_free()
                if new_model is None:
                    new_model = as_kernelbench_runs(taskref.build(task, model_new_cls, None, style, weights).to(device))
                    keep[self.shape_key(si)] = new_model
                res = names_of(new_model.load_state_dict(ref_model.state_dict(), strict=False))
                # the reference's tensors the answer's model took under no name of the reference's go to its own
                # unloaded ones of the same shape, by a route fixed at the instance's first call, here in the free
                # phase (the answer's state_dict runs); with nowhere to hold one, the check runs all the same: a
                # params set's output depends on what it varied (params_gate)
                route = routes.get(id(new_model)) if keep is models else None
                if route is None:
                    route = self.route_unloaded(new_model, ref_model, res[1], res[0], varied)
                    if keep is models:
                        routes[id(new_model)] = route
                self.give_unloaded(new_model, ref_model.state_dict(), route)
                # what the probe leaves alone of the model, read here in the free phase: read in the harness's, its
                # parameters() (an instance attribute of C callables) ran the answer's compute as the harness's
                # (redteam/wall2 h_r7_gadget_frame_inputs_softmax)
                model_ranges = hooks.tensor_ranges(list(new_model.parameters()) + list(new_model.buffers()), {})
                self.wall_harness()
                if state_report is None:
                    state_report = {"missing": res[0], "unexpected": res[1]}
                    self.send({"t": "state_dict", **state_report})
                del ref_model
                seed = self.seed_for(si)
                inputs = self.inputs_for(task, seed, cmd.get("set"), ctx["shapes"][si])
                saved = [t.clone() if isinstance(t, torch.Tensor) else t for t in inputs]
                before = hook.counts()[0]
                # what the probe leaves alone, set for every call alike
                protect(hooks.tensor_ranges(inputs, {}) + model_ranges)
                in_forward = True
                try:
                    out = self.forward_counted(new_model, inputs, self.ctx.get("poison_bytes", 0))
                finally:
                    probed = probed_now()  # asked after every checked forward (sieve_wall.cpp probed)
                if first:
                    self.stage("correct")
                    first = False
                in_forward = False
                self.send_outputs({"t": "output", "si": si, "seed": seed, "launches": hook.counts()[0] - before},
                                  out, inputs, saved)
                del out, inputs, saved
            except BaseException as e:
                if probed and in_forward:
                    # the forward cannot run without its kernels: its output depends on them
                    self.send({"t": "output", "si": si, "seed": seed, "error": f"{type(e).__name__}: {e}"[:500]})
                    in_forward = False
                    continue
                if self.device_full(e):
                    return
                code = classify(e, self.interpreted)
                self.error("correct" if in_forward and code != "COMPILE_ERROR" else "compile", code, e)
                return
        self.stage("proof")
        self.share(task, model_new_cls, style, models, cmd)
        if cmd.get("timing") and (not self.interpreted or self.ctx.get("time_on_cpu")):
            try:
                model = models.get(self.shape_key(0))
                self.timing(task, model, cmd, routes.get(id(model)) if model is not None else None)
            except BaseException as e:
                if not self.device_full(e):
                    self.error("timing", classify(e, False), e)
                return
        if self.wall is not None:
            self.wall.seal()
        launches, names, _, _ = hook.counts()
        self.send({"t": "done", "launches": launches, "kernels": sorted(names)})

    def route_unloaded(self, model, ref_model, unreached, missing, before):
        """{reference name: the answer's name} for the reference's tensors that load_state_dict could not give by name
        (`unreached`) and the answer's own that it left unloaded (`missing`), floating for floating, integer for
        integer (a stored permutation under another name: redteam inputs r29_ok_perm_other_name), bool for bool or
        for an integer one that holds the same 0s and 1s (r30_ok_keep_u8_other_name), of the same shape (or of as
        many elements and the same values: an affine kept as (1, C, 1), r25_ok_affine_broadcast_params): the one
        holding the reference's value now (the instance was built under the same seed, so a parameter the answer
        made as the reference did holds the same values; for a params set's tensors, the value before it varied
        them: `before`), then the same last name (ln.weight -> weight), then the most words shared (in_keep ->
        mask_in, not mask_out: r31_ok_masked_linear_u8_order), then in order. Fixed at an instance's first call:
        later seeds give other values, and the answer's tensors hold what the last call gave them (a Linear's weight
        under another name kept its first seed's values: r24_ok_linear_ln_flat_names; an affine declared beta first
        took gamma's values: r24_ok_ln_beta_first)."""
        torch = self.torch
        ref = ref_model.state_dict()
        own = model.state_dict(keep_vars=True)
        free = [k for k in missing if isinstance(own.get(k), torch.Tensor)]
        route = {}
        for n in unreached:
            r = ref.get(n)
            if not isinstance(r, torch.Tensor):
                continue
            kind = [k for k in free if self.dtype_kind(own[k]) == self.dtype_kind(r)]
            fits = [k for k in kind if tuple(own[k].shape) == tuple(r.shape)]
            view = [k for k in kind if k not in fits and own[k].numel() == r.numel()]
            # a bool mask also to an integer tensor of the same 0s and 1s (a uint8 keep: r30_ok_keep_u8_other_name)
            flags = [k for k in free if r.dtype == torch.bool and self.dtype_kind(own[k]) == "i"
                     and own[k].numel() == r.numel()]
            was = before.get(n, r)
            with torch.no_grad():
                same = [k for k in fits + view + flags if torch.equal(  # in the answer's dtype (a float64 copy:
                    own[k].detach().reshape(-1), was.to(own[k].device, own[k].dtype).reshape(-1))]  # r28_ok_affine_f64_view)
            last = n.rsplit(".", 1)[-1]
            # another shape only with the same values: (C,) kept as (1, C, 1); an integer or bool tensor only there
            # (an answer's own count or table of the shape is not the reference's stored one)
            pool = same or (fits if r.is_floating_point() else [])
            if not pool:
                continue
            words = set(re.split(r"[._]", n.lower())) - {""}  # then the most words shared (in_keep -> mask_in)
            pick = next((k for k in pool if k.rsplit(".", 1)[-1] == last), None) or max(
                pool, key=lambda k: len(words & set(re.split(r"[._]", k.lower()))))
            route[n] = pick
            free.remove(pick)
        return route

    def shape_key(self, si):
        """Which instance entry si's calls use: one per shape (the task's own inputs and every derived set there)."""
        return json.dumps(self.ctx["shapes"][si], sort_keys=True, default=str)

    def dtype_kind(self, t):
        """route_unloaded's classes of dtype: floating, bool, integer (a permutation kept as int32 for int64)."""
        return "f" if t.is_floating_point() else "b" if t.dtype == self.torch.bool else "i"

    def give_unloaded(self, model, ref, route):
        """The reference's values (its state dict `ref`) copied into the answer's tensors as route_unloaded routed
        them: at every check, and before every timed call (renamed weights held the last check's values there, and
        the compared timed call failed a correct answer: timing/manifest.json renamed_weights_timed)."""
        if not route:
            return
        torch = self.torch
        own = model.state_dict(keep_vars=True)
        with torch.no_grad():
            for n, k in route.items():
                if n in ref and k in own and own[k].numel() == ref[n].numel():
                    own[k].copy_(ref[n].reshape(own[k].shape))

    def build_extensions(self, task, model_new_cls, style):
        """A CUDA answer builds its extension where it makes it, often in __init__ (`self.ext =
        load_inline(...)`, KernelBench's pattern): one instance made and dropped here, at the task's own
        shape with a seed of no check's, has nvcc run before the child says it is ready, so the minute of
        compiling holds only the child's share of admission, not its calls' device memory (load_inline loads
        a built extension again in milliseconds when the checks make their instances)."""
        taskref.apply_shape(task, self.ctx["shapes"][0])
        model = taskref.build(task, model_new_cls, self.random_seed(), style)
        del model
        self.reseed()

    def device_full(self, exc):
        """A CUDA out-of-memory while others shared the device, or within what the worker admitted: the
        device may have been full of others' memory (or of what admission wrongly left them), the harness's
        fault until the sample runs alone. Says so (the worker retries the job alone) and returns True; a
        sample that outgrew its admission while it ran alone is its own fault (False)."""
        if self.interpreted or not isinstance(exc, self.oom_type):
            return False
        held, promise = self.reserved(self.device), int(self.ctx.get("gpu_promise") or 0)
        over = held > promise
        if over and self.ctx.get("alone"):
            return False
        # within its admission: retried alone; beyond it beside others: retried once as it was (worker.py)
        self.send({"t": "infra", "oom": True, "over": over,
                   "message": f"CUDA out of memory with {held} bytes held, {promise} admitted"
                              + ("" if self.ctx.get("alone") else ", beside other jobs")})
        return True

    def send_outputs(self, header, out, inputs, saved):
        """Writes a call's outputs into the shared buffer and notes what they are; the worker checks the
        note against the reference before it reads anything."""
        torch = self.torch
        try:
            outs = taskref.flatten_outputs(out)
        except TypeError:
            outs = None
        plain = outs is not None and all(type(o) is self.tensor_type for o in outs)
        if not plain:
            kinds = [type(o).__name__ for o in outs] if outs is not None else [type(out).__name__]
            self.send({**header, "meta": None, "types": kinds[:16]})
            return
        detach = self.tensor_type.detach  # through the type: a tensor's own attribute is no method of the harness's
        overlap = all(self.hook.overlaps(o) for o in outs) if self.cuda_names is None else None
        meta = self.writer.write([detach(o) for o in outs], torch)
        # the mutation check after the write: until the outputs are in the (then read-only) mapping the harness's
        # phase allows no compute (Wall.inputs_made), and torch.equal on a GPU computes (eq, all, item)
        mutated = any(isinstance(a, torch.Tensor) and not (a.shape == b.shape and self.same_bits(detach(a), b))
                      for a, b in zip(inputs, saved))
        self.sync()
        self.send({**header, "meta": meta, "mutated": mutated, "overlap": overlap})

    def same_bits(self, a, b):
        """Whether an input still holds the bits of its saved copy (NaN included, which == is not): compared
        as integers of the same width, with no temporary copy (a 6.4 GB input and two float copies of it did
        not fit beside the call's own memory)."""
        torch = self.torch
        if a.dtype != b.dtype:
            return False
        if a.is_complex():
            a, b = self.view_as_real(a), self.view_as_real(b)
        width = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}.get(a.element_size())
        if a.dtype == torch.bool or width is None:
            return self.equal(a, b)
        return self.equal(self.view_as(a, width), self.view_as(b, width))

    def forward_counted(self, model, inputs, poison_bytes=0):
        t0 = self.perf()
        try:
            return self.forward_profiled(model, inputs, poison_bytes)
        finally:
            self.hook.add_forward_seconds(self.perf() - t0)

    def forward_profiled(self, model, inputs, poison_bytes):
        """Every call of the sample's model (checks, the probe, timed runs) goes through timing.call: the
        same stack, the same L2 flush, events and synchronisation, so a call cannot tell what it is for."""
        # the probe (armed in the wall before the call, LaunchHook.arm): a Triton answer's kernels write poison
        # through the launch hook; the wall poisons extension functions' tensors only for CUDA answers, whose
        # kernels live there. For a Triton answer it would turn any value passed through an extension function
        # (an identity) into the kernels' poison (redteam/wall2 h_ext_passthrough_launder)
        def one_call():
            return timing.call(self.tools, model, inputs, self.flush_buf, poison_bytes)
        if self.cuda_names is None:
            return self.window(one_call)[0]
        from torch.profiler import ProfilerActivity, profile
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            out = self.window(one_call)[0]
        names = self.own_kernel_names()
        for ev in prof.events():
            # a kernel is the answer's only when its exact name is one its own built objects define
            if "CUDA" in str(getattr(ev, "device_type", "")) and ev.name in names:
                self.hook.count_kernel(ev.name)
        return out

    def own_kernel_names(self):
        """Exact names of the kernels the answer's extensions define (wall.kernel_names), read from the shared
        objects mapped from its extension folders; read again when another one is mapped."""
        objs, cache = wall.mapped_objects(self.ext_dirs), self.kernel_cache
        if objs != cache.get("objs"):
            demangle = self.wall.mod.demangle if self.wall is not None else (lambda s: s)
            cache["objs"], cache["names"] = objs, wall.kernel_names(objs, demangle)
        return cache["names"]

    def armed(self, model):
        """The model called inside one armed window of the runtime wall (one report per call)."""
        if self.wall is None:
            return model
        w, call = self.wall, self.call
        return lambda *a: w.forward(lambda: call(model, a))

    def window(self, fn):
        """fn() (one timing.call) inside an armed window: the wall's transitions stay outside its events, and
        the harness's own ops there (the L2 flush, the allocator's poison) are allocations and fills."""
        return fn() if self.wall is None else self.wall.forward(fn)

    def start_wall(self, task):
        """The runtime wall, started before any of the answer loads (wall.py); None where the worker runs
        without it, False (after an infra message) where it should run and cannot."""
        ctx = self.ctx
        self.ext_dirs = [d.rstrip(os.sep) + os.sep for d in (ctx["scratch"], ctx["env"].get("TORCH_EXTENSIONS_DIR"),
                                                                   ctx.get("ext_dir")) if d]
        if not ctx.get("wall"):
            return None
        mod = sys.modules.get("_sieve_wall")
        try:
            if mod is None:
                raise RuntimeError("the zygote did not load the runtime wall")
            # loaded lazily by the first large output: settle it before the wall's snapshot; its two functions
            # are all of ctypes the harness keeps (the wall shuts the rest)
            driver = transport._driver()
            ffi = [driver.cuMemHostRegister_v2, driver.cuMemHostUnregister] if driver is not None else []
            if not self.interpreted:
                # Triton finds its driver with ctypes (cuInit through libcuda) at the first launch: before the wall
                from triton.runtime.driver import driver as triton_driver
                triton_driver.active  # noqa: B018
                # and torch counts devices through NVML with ctypes (torch.manual_seed does, seen on the H200)
                # until it has kept a count, which it does once CUDA is initialized (torch 2.11: on the first
                # count after that): both here
                self.torch.cuda.init()
                self.torch.cuda.device_count()
            # taskref.device_inputs makes the task's inputs inside a device context, whose module (a torch
            # function mode) torch imports at its first use: before the wall, or its code is no harness's
            import torch.utils._device  # noqa: F401
            if self.writer.map is not None:
                # the output buffer mapped by the wall, which keeps it read-only but while it writes there, and no
                # descriptor of it left in the process (Python's mmap keeps one: a second, writable mapping)
                self.writer.adopt(mod.map_shared(self.out_fd, self.writer.size))
            os.close(self.out_fd)
            if ctx.get("backend") != "triton":
                # a built extension's load imports torch._dynamo, which rewraps torch.manual_seed: import it
                # first, so the wall's snapshot holds what torch itself will hold (seen on the H200)
                import torch._dynamo  # noqa: F401
            w = wall.Wall.start(mod, self.fd, ctx["candidate_path"], self.ext_dirs, ctx.get("policy", "strict"),
                                self.interpreted, [taskref, seeds, timing, transport, hooks, wall,
                                                   sys.modules[__name__]] + ([driver] if driver is not None else []),
                                self.hook, ffi, [task],
                                [self.writer.map] if self.writer.map is not None else [], ctx.get("ext_dir"))
            mod.set_poisoner(hooks.poison_extension_call)
        except BaseException as e:
            self.send({"t": "infra", "message": f"the runtime wall did not start: {type(e).__name__}: {e}"[:500]})
            return False
        w.free()
        return w

    def wall_free(self):
        if self.wall is not None:
            self.wall.free()

    def wall_harness(self):
        if self.wall is not None:
            self.wall.harness()

    def error(self, stage, code, exc):
        self.send({"t": "error", "stage": stage, "code": code, "message": f"{type(exc).__name__}: {exc}"[:2000],
                   "traceback": "".join(traceback.format_exception(exc))[-8000:]})

    def share(self, task, model_new_cls, style, models, cmd):
        """The sample's kernels' share of the forward's time (GPU: events or the profiler for CUDA answers;
        CPU: wall time inside its interpreted launches)."""
        hook = self.hook
        share = None
        model = models.get(self.shape_key(0))
        seed = cmd.get("share_seed")
        if model is not None and seed is not None and not self.interpreted:
            try:
                taskref.apply_shape(task, self.ctx["shapes"][0])
                inputs = self.inputs_for(task, seed, None, self.ctx["shapes"][0])
                share = (self.gpu_share(model, inputs) if self.cuda_names is not None
                         else self.event_share(model, inputs))
            except BaseException as e:
                self.send({"t": "note", "message": f"measuring the kernels' share failed: {e}"[:300]})
        if self.wall is not None:
            self.wall.inputs_gone()  # the timing builds its reference models next
        _, _, seconds, forward_seconds = hook.counts()
        if share is None and self.interpreted and forward_seconds > 0:
            share = min(1.0, seconds / forward_seconds)
        self.send({"t": "share", "cuda": self.cuda_names is not None, "share": share})

    def event_share(self, model, inputs):
        """The candidate's kernels' share of GPU time in one forward, from CUDA events recorded around each
        of its launches (the launch hook) and around the whole forward. Cheaper than the profiler, whose
        CUPTI start-up costs seconds per child; an upper bound where the GPU waits on a launch."""
        hook = self.hook
        try:
            args = [t.clone() if self.is_tensor(t) else t for t in inputs]
            start, end = self.Event(enable_timing=True), self.Event(enable_timing=True)
            self.sync()
            hook.share["timer"] = []
            self.record(start)
            with self.no_grad():
                self.armed(model)(*args)
            self.record(end)
            self.sync()
            pairs, hook.share["timer"] = hook.share["timer"], None
            total = self.elapsed(start, end)
            mine = sum(self.elapsed(a, b) for a, b in pairs)
            self.send({"t": "profile", "kernels_seen": bool(pairs), "method": "events"})
            return min(1.0, mine / total) if total > 0 else None
        except Exception as e:
            hook.share["timer"] = None
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
                    self.armed(model)(*args)
                self.sync()
            names = self.own_kernel_names()
            triton_names = self.hook.counts()[1]
            total = mine = 0.0
            for ev in prof.events():
                dt = getattr(ev, "device_time", None)
                if dt is None:
                    dt = getattr(ev, "cuda_time", 0.0)
                dtype = str(getattr(ev, "device_type", ""))
                if "CUDA" not in dtype or not dt:
                    continue
                total += dt
                # exact names only: the answer's Triton kernels (the launch hook's names are its own functions')
                # and the kernels its extensions define, never a name that merely contains one of them
                if ev.name in names or ev.name in triton_names:
                    mine += dt
            self.send({"t": "profile", "kernels_seen": total > 0})
            return mine / total if total > 0 else None
        except Exception as e:
            self.send({"t": "profile", "error": str(e)[:300]})
            return None

    def timing(self, task, model, cmd, route=None):
        """Times the candidate alone; the worker times the reference (eager and torch.compile) once per
        task in a trusted child, on the same shape and input sets, under the same lock. One timed call,
        chosen at random, has its output compared with the reference like a check."""
        ctx = self.ctx
        t = cmd["timing"]
        taskref.apply_shape(task, ctx["shapes"][0])
        seeds = t["seeds"]
        kept, seen = {}, [0]

        def keep(k, idx, out):
            seen[0] += 1
            if int.from_bytes(os.urandom(4), "little") % seen[0] == 0:
                tensor = self.tensor_type
                kept["out"] = self.torch.utils._pytree.tree_map(
                    lambda x: tensor.clone(tensor.detach(x)) if isinstance(x, tensor) else x, out)
                kept["seed"] = seeds[idx]
        self.stage("queue")  # waiting for the GPU is not the sample's time
        fcntl.flock(self.lock_fd, fcntl.LOCK_EX)
        self.stage("timing")
        # Its input sets are made under the lock and gone before it is released: one child at a time holds
        # a timing's memory (the worker's admission holds it once for all jobs, not once per job).
        try:
            # Each input set is called with the weights of its own seed's reference, as in the checks (a
            # reference model's parameters depend on its seed), so every timed call is comparable with its
            # seed's reference: the kept one is drawn uniformly among all of them (reservoir sampling), and
            # no call is one the answer could tell is never compared. The references are built before the inputs
            # are made (after, the harness's phase allows no compute: Wall.inputs_made).
            weights = []
            for ws in t["weights"]:
                ref_model = taskref.build(task, task.Model, None, ctx["style"], ws).to(self.device)
                weights.append(ref_model.state_dict())
                del ref_model
            sets = [self.inputs_for(task, sd, None, ctx["shapes"][0], last=i == len(seeds) - 1)
                    for i, sd in enumerate(seeds)]
            self.reseed()  # the answer's load_state_dict runs next: not with a timed seed's torch seed

            def load(idx):
                if weights[idx]:
                    model.load_state_dict(weights[idx], strict=False)
                    self.give_unloaded(model, weights[idx], route)
            results = [{"shape_index": 0, "which": "candidate",
                        **timing.measure(self.tools, model, sets, call=self.forward_counted_timed, keep=keep,
                                         before=load, **self.ctx.get("timing_limits", {}))}]
            del sets, weights
            self.send({"t": "timings", "timings": results})
            if "out" in kept:
                self.send_outputs({"t": "timed_output", "si": 0, "seed": kept["seed"], "launches": 1},
                                  kept["out"], [], [])
            kept.clear()
            self.empty_cache()
        finally:
            fcntl.flock(self.lock_fd, fcntl.LOCK_UN)

    def forward_counted_timed(self, model, args):
        poison_bytes = self.ctx.get("poison_bytes", 0)
        return self.window(lambda: timing.call(self.tools, model, args, self.flush_buf, poison_bytes))


def main(ctx, fds):
    """Entry point in the candidate's process (forked by the zygote, PID 1 of its namespaces); fds maps names
    ("result", "ctl", "lock", "log", "status", ...) to this process's fd numbers. The sandbox is applied here,
    before anything of the sample is loaded; what it applied goes to the worker on the status pipe (which
    the candidate's code never sees) and on the result pipe. Never returns."""
    code = 0
    # a crash in native code leaves every thread's Python stack in child.log, and so does SIGUSR2 from the
    # operator on a candidate that hangs (PID 1 of its namespace: only signals it handles reach it)
    faulthandler.enable(all_threads=True)
    faulthandler.register(signal.SIGUSR2, all_threads=True)
    fds = dict(fds)
    fd = fds["result"]
    status = fds.pop("status", None)
    fds.pop("log", None)  # it is fds 1 and 2 now
    try:
        applied = sandbox.apply(
            ctx, list(fds.values()) + ([status] if status is not None else []),
            lambda c, detail: transport.send_line(fd, {"t": "violation", "code": c, "detail": detail}),
            ctx.get("_ns") or {})
        if status is not None:
            os.write(status, (json.dumps({"applied": applied}) + "\n").encode())
            os.close(status)
        transport.send_line(fd, {"t": "sandbox", "applied": applied})
        Child(ctx, fds).run()
    except SystemExit:
        pass
    except BaseException as e:
        try:
            transport.send_line(fd, {"t": "error", "stage": "compile", "code": "RUNTIME_ERROR",
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
