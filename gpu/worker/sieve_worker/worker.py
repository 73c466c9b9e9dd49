"""The warm worker: speaks JSON lines with the engine, computes references in trusted forked children,
runs static checks, forks one sandboxed child per candidate, compares its outputs and decides verdicts.

Single-threaded on purpose: an event loop over stdin and the children's pipes (forking from a process
with live threads invites deadlocks in the child). The worker never initialises CUDA (children do) and
never runs torch compute itself (references run in a forked child, so no OpenMP pool exists at fork).

This module is the loop and the protocol: requests in, verdicts out, the job queue, the task servers that
compute references; admission.py is what each child and server is promised of the machine's memory. What each child gets and how it starts is launch.py's (the trust
boundary); what a job's results make of it, rules.py's (pure functions); what the machine is, probes.py's.
"""
import collections
import hashlib
import hmac
import json
import math
import os
import platform
import secrets
import selectors
import shutil
import subprocess
import sys
import time

from . import WORKER_VERSION, log, rules
from .sandbox import cgroups, probes, taskbox
from .data import compare, judge, transport
from .tasks import hygiene, taskref, trusted
from .candidate import launch, native, wall
from .extensions import sched
from .static import static
from .sandbox.admission import CHILD_GPU_BASE, CHILD_HOST_BASE, GPU_RESERVE, HOST_RESERVE, Admission, Asked

REF_TIMING_TIMEOUT = 900
MAX_SERVER_RETRIES = 2  # a request whose task server dies is asked again this often before it is the task's

REF_OPEN = 16  # memory-mapped reference sets kept open
REF_PARALLEL = 4  # task servers of a GPU worker (large references take turns: taskref.take_lock)
JUDGE_TIMEOUT = 300  # seconds for the judge to recompute a reference and compare one call's outputs (a judge
# that takes longer is stopped and the job retried)


def transport_write(fd, data):
    """Writes to a child's control pipe (blocking: commands are short)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def drain(fd):
    """What a non-blocking pipe holds now: (bytes, whether the other end is closed)."""
    chunks = []
    while True:
        try:
            data = os.read(fd, 1 << 20)
        except BlockingIOError:
            return b"".join(chunks), False
        except OSError:
            data = b""
        if not data:
            return b"".join(chunks), True
        chunks.append(data)


def remove_stale_sessions(root):
    """Reference folders of worker sessions on this host that died without cleaning up (SIGKILL by the
    engine's watchdog): their seeds are useless to anyone, their GBs are not."""
    try:
        names = os.listdir(root)
    except OSError:
        return
    host = platform.node() or "host"
    for n in names:
        parts = n.split("-")
        if len(parts) < 4 or parts[0] != "session" or "-".join(parts[1:-2]) != host or not parts[-2].isdigit():
            continue
        try:
            os.kill(int(parts[-2]), 0)
            continue  # alive (or another user's): leave it
        except ProcessLookupError:
            shutil.rmtree(os.path.join(root, n), ignore_errors=True)
        except OSError:
            continue


def finite_json(x):
    """x with every NaN and infinity replaced by its name as a string ("nan", "inf", "-inf")."""
    if isinstance(x, float) and not math.isfinite(x):
        return "nan" if x != x else ("inf" if x > 0 else "-inf")
    if isinstance(x, dict):
        return {k: finite_json(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [finite_json(v) for v in x]
    return x


def shown(task, si, label):
    """A check's seed as messages show it: "3", or "3 (inputs: signed)" for a derived input set."""
    name = taskref.input_set_of(task["summary"], si)
    return f"{label}" if name == "task" else f"{label} (inputs: {name})"


class BadRequest(ValueError):
    """A request the engine should not have sent (an unknown policy): answered with an error line."""


class Job:
    def __init__(self, req):
        self.req = req
        self.job = req.get("job")
        self.started = time.monotonic()
        self.pid = None
        self.fd = None
        self.ctl = None
        self.reader = transport.LineReader()
        self.buffer = None  # transport.Buffer: the call's outputs, written by the child
        self.plan = []  # calls still to make: (si, seed label, probe?)
        self.call = None  # the call the child is making now
        self.stage = "compile"
        self.deadline = None
        self.host_bytes = self.gpu_bytes = 0  # what admission promised this job (held now)
        self.gpu_full = 0  # its device memory for the calls, granted when its code is built (grant_room)
        self.need = 0  # while it waits for that grant: the bytes beyond what it holds
        self.judge_bytes = self.timing_extra = 0  # its share of the judge's and the timing stage's memory
        self.granted = False
        self.deadline_left = None  # its stage's time left, kept while it waits for a grant or the judge
        self.judging = None  # the continuation of a check the judge is making now
        self.settle_later = None  # (exit status, log) of a child that ended while its check was judged
        self.checks = []
        self.failure = None  # (status, stage, [reasons], message)
        self.violations = []
        self.error = None
        self.done = None
        self.probe = None
        self.timings = None
        self.bytes_moved = None
        self.notes = []
        self.launches = 0
        self.cancelled = False
        self.timed_out = False
        self.scratch = None
        self.log_path = None
        self.share = None
        self.expected = 0
        self.expected_keys = set()
        self.seen = set()
        self.exit_status = None
        self.timed_checked = False
        self.probe_failure = None
        self.want_timing = False
        self.timing_labels = []
        self.poison = None
        self.logfd = None
        self.infra = None  # the child could not start CUDA before running anything of the sample
        self.infra_code = "DEVICE_UNAVAILABLE"  # or SANDBOX_UNAVAILABLE: its sandbox was not set up (launch.reap)
        self.retries = 0
        self.outside_kills = []  # evidence of each earlier attempt killed from outside (killed_from_outside)
        self.sched0 = None  # (monotonic, probes.sched_times) at the stage's start: stage_clock
        self.load = None  # at a stage's deadline: rules.stage_load's finding
        self.load_faults = []  # evidence of each earlier attempt that ran out of time under load
        self.alone = False  # admitted only when nothing else runs (a retry after the device was full)
        self.native = False  # a raw CUDA answer: the child is `sieve-cli cuda-verify`, its stdout one JSON
        self.raw = b""
        self.marks = {}  # first time (monotonic, worker's clock) of each event of the child's life: phases()
        self.spent = {"checks": 0.0, "probe": 0.0, "compare": 0.0}  # summed over calls
        self.call_sent = None
        self.judged = set()  # shapes whose checks the judge made
        self.buffer_id = None  # what the judge knows the job's buffer by (judge.buffer_id)
        self.wall = False  # the runtime wall runs in the child (wall.py): one report per forward, then a seal
        self.wall_serial = 0  # the last window report's serial
        self.wall_pending = 0  # window reports since the last checked output
        self.wall_sealed = False
        self.wall_seconds = 0.0  # the wall's own cost (its transitions), summed over the windows

    def mark(self, name):
        self.marks.setdefault(name, time.monotonic())

    def phases(self):
        """Where the job's time went, in seconds, from the worker's own clock (the candidate reports none of
        it): waiting for admission and references, starting the sandboxed process, its CUDA context and task,
        compile (module import and the first call, where Triton compiles), the other checks and the probe
        (round trips of the calls), the worker's comparing, the GPU-share measurement, waiting for and
        holding the timing lock, the process's exit, and waiting for the task's reference timing."""
        m = self.marks
        if "spawn" not in m:
            return None

        def span(a, b):
            return round(m[b] - m[a], 4) if a in m and b in m else None
        first = self.spent.get("first_call", 0.0)
        out = {"wait": round(m["spawn"] - self.started, 4), "start": span("spawn", "sandbox"),
               "context": span("sandbox", "compile"), "compile": span("compile", "ready"),
               "first_call": round(first, 4), "checks": round(self.spent["checks"], 4),
               "probe": round(self.spent["probe"], 4), "compare": round(self.spent["compare"], 4),
               "share": span("proof", "queue") if "queue" in m else span("proof", "done"),
               "queue": span("queue", "timing"), "timing": span("timing", "done"), "exit": span("done", "exit"),
               "ref_timing_wait": span("parked", "unparked"), "wall": round(self.wall_seconds, 4) if self.wall else None,
               "total": round(m.get("unparked", m.get("exit", time.monotonic())) - self.started, 4)}
        return {k: v for k, v in out.items() if v is not None}


class RefTimer:
    """The reference timing of one task (see reftiming.py), and the verdicts waiting for it."""

    def __init__(self):
        self.result = None
        self.parked = []  # (job, exit status, log) of timed candidates whose verdict needs the reference


class Worker(Admission):
    def __init__(self, device, parallel):
        self.device = device
        self.parallel = max(1, parallel)
        self.cache_dir = None
        self.scratch_root = None
        self.tasks = {}
        self.refs = collections.OrderedDict()
        self.queue = []
        self.session_dir = None  # this session's references (secret seeds: nothing to share with others)
        self.host_budget = self.gpu_budget = None
        self.budgets = None  # cgroups.Budgets, made at the first hello
        self.promised_host = self.promised_gpu = 0
        self.disk_promised = 0  # disk promised to reference computations running (disk_grant)
        self.running = {}  # fd -> Job
        self.reftimers = {}  # (task_key, sig) -> RefTimer
        self.pending_refs = set()  # task keys whose references are being computed or wait for their turn
        self.screened = {}  # job -> task key: passed stage 0 ahead of the task, its verify request yet to come
        self.ref_parallel = 1 if device == "cpu" else max(1, min(REF_PARALLEL, (os.cpu_count() or 1) // 4))
        self.ref_servers = []  # task servers (trusted.TaskServer), started as they are needed: ref_parallel
        self.ref_waiting = []  # (request, timeout, on_done) for references, waiting for a free task server
        self.room_waiting = []  # Asked requests and Jobs waiting for device memory (grant_room), in order
        self.promised_bases = 0  # the part of promised_gpu that jobs hold while their code builds
        self.timing_waiting = []  # the same for reference timings (before references) and task checks (after)
        self.builds = None  # sched.Scheduler: load_inline extensions, built outside the candidates (hello)
        self.judge = judge.Client(device, JUDGE_TIMEOUT)  # compares where references are too large to keep
        self.judge.on_start = lambda fd: self.sel.register(fd, selectors.EVENT_READ, self.judge)
        self.judge.on_stop = lambda fd: self.sel.unregister(fd)
        self.trusted = {}  # fd -> Asked: requests out to the task servers
        self.sel = selectors.DefaultSelector()
        self.inbuf = b""
        self.quit = False
        self.env = None
        self.lock_path = None
        self.zygote = None  # launch.Zygote, from hello on
        self.wall_so = None  # the runtime wall's built extension (wall.build), from hello on
        self.wall_build = None
        self.fp32_precision = "deployed"
        self.channel_key = None  # bytes, from the hello request (stdin): never in the environment
        self.channel_seq = 0

    # ---- engine I/O ------------------------------------------------------------------------------------
    def emit(self, obj):
        """One protocol line; once hello brought the channel key, tagged "<hmac> <seq> <json>" (see
        gpu/verify/workerprocess.h): the engine drops any line of stdout without a valid tag. Strict JSON: a NaN
        or inf (a max error over uninitialised outputs) would make the line unparsable, and the verdict lost."""
        try:
            line = json.dumps(obj, allow_nan=False)
        except ValueError:
            line = json.dumps(finite_json(obj), allow_nan=False)
        if self.channel_key is not None:
            tag = hmac.new(self.channel_key, f"{self.channel_seq} {line}".encode(), hashlib.sha256).hexdigest()
            line = f"{tag} {self.channel_seq} {line}"
            self.channel_seq += 1
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def handle(self, line):
        try:
            msg = json.loads(line)
            op = msg["op"]
        except Exception as e:
            self.emit({"op": "error", "message": f"malformed request: {e}"})
            return
        try:
            if op == "hello":
                self.hello(msg)
            elif op == "task":
                self.task(msg)  # returns at once: the references run in a child (start_reference)
            elif op == "check_task":
                self.check_task(msg)  # hygiene alone (sieve-cli tasks check); answers with task_checked
            elif op == "verify":
                self.screened.pop(msg.get("job"), None)
                self.queue.append(Job(msg))
                self.time_ahead(msg)
            elif op == "screen":
                self.screen(msg)  # stage 0 alone, before the task is ready: a verdict or "screened"
            elif op == "cancel":
                self.cancel(msg.get("job"))
            elif op == "shutdown":
                self.quit = True
            else:
                self.emit({"op": "error", "message": f"unknown op {op!r}"})
        except Exception as e:
            import traceback
            self.emit({"op": "error", "message": f"{op}: {type(e).__name__}: {e}"})
            log(traceback.format_exc())

    def zygote_ready(self, attempts=3):
        """The zygote's ready message; a zygote that dies before it is ready (killed from outside) is started
        again, a bounded number of times, rather than failing the session."""
        for attempt in range(attempts):
            try:
                return self.zygote.ready()
            except RuntimeError as e:
                if attempt == attempts - 1:
                    raise
                log(f"{e}; starting it again ({attempt + 1})")
                self.zygote.start(wait=False)

    def hello(self, msg):
        key = msg.pop("channel_key", None)
        if key is not None:
            try:
                self.channel_key, self.channel_seq = bytes.fromhex(key), 0
            except (TypeError, ValueError):
                self.emit({"op": "error", "message": "hello: field channel_key must be a hex string"})
        self.cache_dir = os.path.abspath(msg.get("cache_dir") or os.path.expanduser("~/.cache/sieve/verifier"))
        self.scratch_root = os.path.abspath(msg.get("scratch_root") or os.path.join(self.cache_dir, "scratch"))
        for d in (self.cache_dir, os.path.join(self.cache_dir, "tasks"), os.path.join(self.cache_dir, "refs"),
                  self.scratch_root):
            os.makedirs(d, exist_ok=True)
        os.chmod(os.path.join(self.cache_dir, "tasks"), 0o755)
        os.chmod(os.path.join(self.cache_dir, "refs"), 0o700)  # reference outputs: this uid only
        # the reference timing's compiler caches: its torch.compile loads what is there (Triton's launchers
        # are shared objects), so no candidate may write them: this uid only, apart from the shared ones
        for d in ("inductor", "triton"):
            os.makedirs(os.path.join(self.cache_dir, "trusted", d), exist_ok=True)
        os.chmod(os.path.join(self.cache_dir, "trusted"), 0o700)
        taskbox.own_tree(os.path.join(self.cache_dir, "trusted"), taskbox.TASK_SERVER_UID)  # the task servers'

        os.chmod(self.cache_dir, 0o755)
        os.chmod(self.scratch_root, 0o755)
        # the candidates' compiler caches: one folder per answer's code (candidate_caches), under a parent
        # the sandbox uids may traverse but not list or write; the zygote's own cache is this uid's only
        os.makedirs(os.path.join(self.cache_dir, "candidates"), exist_ok=True)
        os.chmod(os.path.join(self.cache_dir, "candidates"), 0o711)
        launch.remove_unused_caches(os.path.join(self.cache_dir, "candidates"), launch.CANDIDATE_CACHE_DAYS)
        os.makedirs(os.path.join(self.cache_dir, "zygote", "triton"), exist_ok=True)
        os.chmod(os.path.join(self.cache_dir, "zygote"), 0o700)
        # Keyed by host and physical GPU: with CUDA_VISIBLE_DEVICES (Slurm) "cuda:0" of two processes may be
        # two GPUs, and a cache dir on a shared home is seen by every node.
        phys = probes.physical_gpu(self.device).replace("/", "_").replace(":", "")
        self.lock_path = os.path.join(self.cache_dir, f"gpu-{platform.node() or 'host'}-{phys}.lock")
        open(self.lock_path, "a").close()
        os.chmod(self.lock_path, 0o666)
        prec = msg.get("fp32_precision", "deployed")
        if prec not in launch.FP32_PRECISIONS:
            self.emit({"op": "error", "message": f"hello: field fp32_precision must be one of "
                                                 f"{list(launch.FP32_PRECISIONS)}, not {prec!r}"})
            prec = "deployed"
        self.fp32_precision = prec
        remove_stale_sessions(os.path.join(self.cache_dir, "refs"))
        self.session_dir = os.path.join(self.cache_dir, "refs",
                                        f"session-{platform.node() or 'host'}-{os.getpid()}-{secrets.token_hex(8)}")
        os.makedirs(self.session_dir, mode=0o700)
        taskbox.own_tree(self.session_dir, taskbox.TASK_SERVER_UID)  # written by the (sandboxed) task servers
        if self.zygote is not None:
            self.zygote.stop()
        self.wall_so = None
        if msg.get("runtime_wall", True):
            # the runtime wall (wall.py), built once per torch and kept in a folder of this uid's only
            try:
                self.wall_so, took = wall.build(os.environ.get("SIEVE_WALL_CACHE")
                                                or os.path.expanduser("~/.cache/sieve/wall"), log)
                self.wall_build = {"build_s": round(took, 3), "policy_default": "strict"}
            except (OSError, RuntimeError, subprocess.SubprocessError) as e:
                self.wall_build = {"error": str(e)[:500]}
                log(f"the runtime wall is off: {e}")
        else:
            self.wall_build = {"off": "runtime_wall: false in hello"}
        self.zygote = launch.Zygote(self.device, self.cache_dir, self.wall_so)
        if self.builds is None:
            self.builds = sched.Scheduler(self, os.path.join(self.cache_dir, "built"), msg.get("build_parallel"))
        self.zygote.start(wait=False)  # its imports overlap with the environment's
        self.env = probes.environment(self.device)
        self.env["fp32_precision"] = prec
        self.env["runtime_wall"] = self.wall_build
        z = self.zygote_ready()
        self.env["sandbox"] = {**z["features"], "zygote_import_s": z["import_s"],
                               "zygote_cuda_initialized": z["cuda_initialized"], "zygote_fds": z["fds"]}
        if z["features"]["missing"]:
            log("sandbox: this kernel lacks " + "; ".join(z["features"]["missing"]))
        # what children may be promised: the host's available memory now (the worker is idle) less a reserve,
        # and the GPU's free memory (measured by the device probe child) less a reserve
        self.host_budget = max(1 << 30, probes.mem_available() - HOST_RESERVE)
        if self.device != "cpu":
            free = int(self.env.get("gpu_free_bytes") or 0)
            self.gpu_budget = max(1 << 30, free - GPU_RESERVE) if free else None
        # a host shared with other work may lower them (never raise them)
        for key, attr in (("host_budget_bytes", "host_budget"), ("gpu_budget_bytes", "gpu_budget")):
            v = msg.get(key)
            if isinstance(v, int) and v > 0:
                setattr(self, attr, min(v, getattr(self, attr) or v))
        self.env["memory_budget"] = {"host_bytes": self.host_budget, "gpu_bytes": self.gpu_budget}
        self.env["extension_builds"] = {"parallel": self.builds.parallel, "cache": self.builds.root}
        if self.budgets is None:  # the kernel's budgets (cgroups.py): once per worker
            self.budgets = cgroups.Budgets()
        self.env["sandbox"]["cgroups"] = self.budgets.mode or "none"
        if self.budgets.missing:
            self.env["sandbox"]["missing"] = list(self.env["sandbox"].get("missing") or []) + [self.budgets.missing]
            log("sandbox: " + self.budgets.missing)
        self.emit({"op": "hello", "worker_version": WORKER_VERSION, "env": self.env})

    # ---- tasks --------------------------------------------------------------------------------------------
    def task(self, msg):
        if self.cache_dir is None:
            self.hello({})
        key = msg["task_key"]
        code = msg["reference_code"]
        sig = hashlib.sha256(json.dumps([code, msg.get("shapes"), msg.get("seeds"), msg.get("dtype"),
                                         msg.get("atol"), msg.get("rtol")], sort_keys=True).encode()).hexdigest()
        known = self.tasks.get(key)
        if known and known["sig"] == sig:
            self.emit(known["ready"])
            return
        path = os.path.join(self.cache_dir, "tasks", f"{hashlib.sha256(key.encode()).hexdigest()[:24]}.py")
        tmp = f"{path}.{os.getpid()}.tmp"  # workers of other GPUs may share the cache dir: replace atomically
        with open(tmp, "w") as f:
            f.write(code)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
        msg = dict(msg)
        # one call's inputs + outputs must fit where the call runs: a candidate holds them about twice
        # (saved inputs for the mutation check, the allocator's poison block), on the GPU or (CPU mode) the host
        room = self.gpu_budget if self.device != "cpu" and self.gpu_budget else self.host_budget
        msg.setdefault("max_task_bytes", max(1 << 20, (room - (CHILD_GPU_BASE if self.device != "cpu"
                                                               else CHILD_HOST_BASE)) // 2))
        if self.device == "cpu":
            msg.setdefault("cpu_max_elements", 1 << 16)
        msg["_disk_explicit"] = "ref_disk_bytes" in msg  # else measured each time references are computed
        msg["ref_device"] = self.device
        if key in self.pending_refs:
            return  # its reference child is running: task_ready follows when it is done
        self.start_reference(key, sig, msg, path)

    def check_task(self, msg):
        """Hygiene alone at the task's own shapes, on this worker's device, in a task server (hygiene.py);
        nothing is cached and no verify state changes. Answered with task_checked."""
        if self.cache_dir is None:
            self.hello({})
        key = msg["task_key"]
        path = os.path.join(self.cache_dir, "tasks", f"check-{hashlib.sha256(key.encode()).hexdigest()[:24]}.py")
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "w") as f:
            f.write(msg["reference_code"])
        os.replace(tmp, path)
        req = dict(msg)
        if self.device == "cpu":
            req.setdefault("cpu_max_elements", 1 << 16)
        device = self.device
        req.update(op="check", task_path=path)

        def done(res, timed_out):
            if res is None or "error" in res:
                why = "timed out" if timed_out else (res or {}).get("error", "crashed")
                res = {"ok": False, "shapes": [], "device": device,
                       "hygiene": [{"code": "REF_FAILED", "message": f"the hygiene check {why}"}]}
            self.emit({"op": "task_checked", "task_key": key, **res})

        self.ask(req, float(msg.get("reference_timeout", 600)), done)

    def read_asked(self, ask, timed_out=False):
        """A task server's answer (or its death, or its deadline: then it is stopped, and a fresh one serves
        the next request); the server, free again, takes the next waiting request."""
        srv, answer = ask.server, None
        if not timed_out:
            try:
                answer = srv.poll()
            except (RuntimeError, ValueError):
                answer = False
            if answer is None:
                return
            if isinstance(answer, dict) and "need_gpu" in answer and "res" not in answer:
                # a large reference asks for its device memory before it allocates (trusted.ask_room)
                n = answer["need_gpu"]
                ask.need = n if isinstance(n, int) and n > 0 else 0
                ask.asked_at = time.monotonic()
                self.room_waiting.append(ask)
                return self.grant_room()
        if ask in self.room_waiting:
            self.room_waiting.remove(ask)
        fd = srv.fileno()
        self.sel.unregister(fd)
        del self.trusted[fd]
        srv.busy = False
        self.promised_gpu -= ask.gpu
        if ask.disk is not None:
            self.disk_promised -= ask.disk
        self.grant_room()
        if timed_out or answer is False or not isinstance(answer, dict):
            srv.stop()
            if not timed_out and ask.req is not None:
                # the server died under the request (the OOM killer, an operator): the harness's fault until
                # it follows the request on every attempt; the request runs again on a fresh server
                deaths = ask.req.get("_server_deaths", []) + [f"attempt {len(ask.req.get('_server_deaths', [])) + 1}: "
                                                              f"{srv.last_exit or 'the server died'}"]
                if len(deaths) <= MAX_SERVER_RETRIES:
                    log(f"{srv.name} died under a {ask.req.get('op')} request ({deaths[-1]}); asking again")
                    self.next_request(srv)
                    return self.ask(dict(ask.req, _server_deaths=deaths), ask.timeout, ask.on_done, ask.gpu)
                answer = {"error": f"the task server died under this request on each of {len(deaths)} attempts: "
                                   + "; ".join(deaths), "code": "REF_CRASHED"}
            else:
                answer = None
        elif "error" in answer:
            answer = {"error": answer["error"]}  # (a code of the server's own is not trusted)
        else:
            answer = answer.get("res")
        self.next_request(srv)
        ask.on_done(answer if isinstance(answer, dict) else None, timed_out)

    def next_request(self, srv):
        """What a task server that is free again takes: a reference timing first (verdicts are parked
        waiting for it, or a sample about to need it), then references (samples wait for them), then task
        checks. On KernelBench's level 1, timings behind the references of the other tasks in flight
        (large ones one at a time) held finished samples back for minutes."""
        timing = next((i for i, r in enumerate(self.timing_waiting) if r[0].get("op") == "timing"), None)
        if timing is not None:
            return self.send_to(srv, *self.timing_waiting.pop(timing))
        for waiting in (self.ref_waiting, self.timing_waiting):
            if waiting:
                return self.send_to(srv, *waiting.pop(0))

    def task_ref_paths(self, task):
        s = task["summary"]
        for si, shape in enumerate(s.get("shapes", [])):
            for secret in s.get("secret_seeds", []):
                yield taskref.cache_path(self.session_dir, task["req"]["task_key"], s["code_hash"], shape, secret,
                                         taskref.input_set_of(s, si))

    def evict_refs(self, keep_key):
        """Deletes the references of every task no job is running or waiting for, so that a task whose
        references do not fit the disk gets the room; an evicted task computes them again (new secret
        seeds) when a sample of it comes. Returns the bytes freed."""
        busy = {j.req.get("task_key") for j in list(self.running.values()) + self.queue} | self.pending_refs
        busy |= set(self.screened.values())  # samples the engine holds until one of its places is free
        freed = 0
        for key, t in self.tasks.items():
            if key == keep_key or key in busy or t.get("evicted") or not t["ready"]["ok"]:
                continue
            for p in self.task_ref_paths(t):
                freed += taskref.remove_ref(p)
            t["evicted"] = True
            for k in [k for k in self.refs if k[0] == key]:
                del self.refs[k]
        if freed:
            log(f"references of idle tasks removed to make room: {freed} bytes")
        return freed

    def start_reference(self, key, sig, msg, path, retried=False, announce=True):
        """References are computed by the worker's task servers (trusted.TaskServer: trusted, one device
        context each for the whole session) while the loop goes on serving other tasks' samples, up
        to ref_parallel tasks at once; a reference is not counted in admission, so one whose call takes more
        than taskref.BIG_REF_BYTES (or whose size the meta device cannot tell) waits for the worker's
        big-reference lock: large ones run one at a time. A lock per task in the cache dir makes workers of
        other GPUs that share it take turns on the same task."""
        self.pending_refs.add(key)
        req = dict(msg, op="references")
        req.update(big_lock=os.path.join(self.session_dir, "big-reference.lock"), task_path=path,
                   cache_dir=self.session_dir,
                   task_lock=os.path.join(self.cache_dir, "refs", hashlib.sha256(key.encode()).hexdigest()[:24] + ".lock"))

        def done(summary, timed_out):
            self.pending_refs.discard(key)
            if summary is not None and summary.get("device_full") and not msg.get("alone"):
                # out of device memory beside candidates and other references: the harness's load, never the
                # task's verdict (taskref.DeviceFull). Computed again with every shape's memory asked of
                # admission first; the last attempt asks for the whole device (alone)
                attempt = int(msg.get("ref_attempt", 0)) + 1
                again = dict(msg, ref_attempt=attempt, room_every_shape=True,
                             **({"alone": True} if attempt >= rules.MAX_REF_DEVICE_RETRIES else {}))
                log(f"task {key}: {summary.get('message')}; computed again"
                    + (" alone" if again.get("alone") else " with its memory granted first"))
                self.emit({"op": "task_queued", "task_key": key})
                return self.start_reference(key, sig, again, path, retried=retried, announce=announce)
            if summary is None or "error" in summary:
                why = "timed out" if timed_out else (summary or {}).get("error") or "crashed"
                # REF_CRASHED: its server died on every attempt (read_asked), the evidence in the message
                code = "REF_CRASHED" if (summary or {}).get("code") == "REF_CRASHED" else "REF_FAILED"
                summary = {"ok": False, "shapes": [], "dropped_shapes": [],
                           "hygiene": [{"code": code, "message": f"the reference {why}"}]}
            if not retried and not msg.get("_disk_explicit") and summary.get("recompute_for_disk") \
                    and self.evict_refs(key) > 0:
                # what it left to the judge for want of disk may fit now: once more, with the room measured
                for p in self.task_ref_paths({"req": msg, "summary": summary}) if summary.get("code_hash") else ():
                    taskref.remove_ref(p)
                # it may wait for a task server again: the engine's REF_TIMEOUT counts from its new start
                self.emit({"op": "task_queued", "task_key": key})
                return self.start_reference(key, sig, msg, path, retried=True, announce=announce)
            ready = {"op": "task_ready", "task_key": key, "shapes": summary.get("shapes", []),
                     "dropped_shapes": summary.get("dropped_shapes", []), "hygiene": summary.get("hygiene", []),
                     "ok": bool(summary.get("ok")), "input_sets": summary.get("input_sets", [])}
            self.tasks[key] = {"sig": sig, "ready": ready, "req": msg, "path": path, "summary": summary}
            if announce:
                self.emit(ready)
            for job in [j for j in self.queue if j.req.get("task_key") == key]:
                self.time_ahead(job.req)

        self.ask(req, float(msg.get("reference_timeout", 600)), done)

    def ask(self, req, timeout, on_done, gpu=0):
        """Sends req to an idle task server (trusted.TaskServer; a new one while fewer than ref_parallel
        run), or queues it (next_request says in what order they are taken). While it runs it holds a
        promise of gpu bytes in admission; on_done(answer or None, timed_out) runs in the loop when the
        answer comes."""
        srv = next((s for s in self.ref_servers if not s.busy), None)
        if srv is None and len(self.ref_servers) < self.ref_parallel:
            srv = self.new_server()
            self.ref_servers.append(srv)
        if srv is None:
            (self.ref_waiting if req["op"] == "references" else self.timing_waiting).append((req, timeout, on_done, gpu))
            return
        self.send_to(srv, req, timeout, on_done, gpu)

    def new_server(self):
        device = self.device
        n = len(self.ref_servers)
        return trusted.Server(f"task server {n}", lambda: trusted.TaskServer(device), confine=self.server_spec(n))

    def server_spec(self, n):
        """A task server's sandbox (taskbox.confine_server): it reads the task modules, writes this session's
        references, the trusted compiler caches and a scratch folder of its own; the rest of the cache dir
        and the scratch root are hidden. Reference code comes from mined corpora: it gets no key of the
        operator's, no network, no other process's files."""
        env = {k: os.environ[k] for k in ("TRITON_INTERPRET",) if k in os.environ}
        scratch = os.path.join(self.scratch_root or self.cache_dir, f"task-server-{os.getpid()}-{n}")
        cg = self.budgets.make(f"task-server-{n}-{int(time.time() * 1000) % 10**8}", (self.host_budget or 8 << 30) // 2,
                               pids=4096, cpu_weight=100) if self.budgets else None
        return {"device": self.device, "uid": taskbox.TASK_SERVER_UID, "env": env, "cgroup": cg, "scratch": scratch,
                "read": [os.path.join(self.cache_dir, "tasks")],
                "write": [self.session_dir, os.path.join(self.cache_dir, "trusted"), scratch],
                "hide": [d for d in (self.cache_dir, self.scratch_root) if d]}

    def send_to(self, srv, req, timeout, on_done, gpu):
        disk = None
        if req.get("op") == "references" and not req.get("_disk_explicit"):
            # references computed side by side each get a part of the disk's share, not all of it: four
            # tasks that each keep 15 GB once filled a 64 GB disk (each measured the same free space)
            disk = self.disk_grant()
            req = dict(req, ref_disk_bytes=disk)
        # the lock files a request takes, as fds: a task server's sandbox does not show their folders
        lock = req.get("task_lock") if req.get("op") == "references" else \
            req.get("lock_path") if req.get("op") == "timing" else None
        fds = []
        if lock:
            try:
                fds.append(os.open(lock, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644))
            except OSError as e:  # the server opens it itself (and says so if it cannot)
                log(f"lock file {lock}: {e}")
        try:
            try:
                srv.send(req, fds)
            except OSError:  # it died while idle: a fresh one
                srv.stop()
                srv.send(req, fds)
        finally:
            for fd in fds:
                os.close(fd)
        srv.busy = True
        self.promised_gpu += gpu
        ask = Asked(srv, time.monotonic() + timeout, on_done, gpu)
        ask.req, ask.timeout = req, timeout
        if disk is not None:
            ask.disk = disk
            self.disk_promised += disk
        self.trusted[srv.fileno()] = ask
        self.sel.register(srv.fileno(), selectors.EVENT_READ, ask)
        if req.get("op") == "references":  # the engine times a task's references from here, not while queued
            self.emit({"op": "task_started", "task_key": req.get("task_key")})

    def reference(self, task, si, seed):
        """Reference outputs of (shape si, seed label), memory-mapped from this session's folder."""
        s = task["summary"]
        secret = s["secret_seeds"][s["seeds"].index(seed)]
        key = (task["req"]["task_key"], task["sig"], si, seed)
        hit = self.refs.pop(key, None)
        if hit is None:
            p = taskref.cache_path(self.session_dir, task["req"]["task_key"], s["code_hash"], s["shapes"][si], secret,
                                   taskref.input_set_of(s, si))
            hit = taskref.load_ref(p)
        self.refs[key] = hit  # most recently used last
        while len(self.refs) > REF_OPEN:
            self.refs.popitem(last=False)
        return hit

    def expected_metas(self, task, si, seed):
        s = task["summary"]
        return [(d, list(shape)) for d, shape in s["metas"][si][s["seeds"].index(seed)]]

    # ---- verify -------------------------------------------------------------------------------------------
    def verdict(self, job, status, stage, reasons, message, **extra):
        task = self.tasks.get(job.req.get("task_key"))
        v = {"op": "verdict", "job": job.job, "sample_id": job.req.get("sample_id"), "status": status,
             "stage": "timing" if stage == "queue" else stage, "reasons": list(dict.fromkeys(reasons)), "message": message,
             "log": extra.pop("log", ""), "interpreted": self.device == "cpu", "checks": job.checks,
             "kernels_launched": job.launches, "custom_kernel_share": job.share,
             "timings": job.timings or [], "speedup": None, "flags": [],
             "duration_ms": int((time.monotonic() - job.started) * 1000)}
        if task:
            v["shapes"] = task["summary"].get("shapes", [])
        if getattr(job, "sandbox", None) is not None:  # what the candidate's sandbox applied and lacked
            v["sandbox"] = job.sandbox
        if getattr(job, "fp32_precision", None):
            v["fp32_precision"] = job.fp32_precision
        phases = job.phases()
        if phases:
            v["phases"] = phases
        v.update(extra)
        notes = getattr(job, "static_notes", None)  # stage 0's non-fatal findings (CPU_FALLBACK_NOTE, ...)
        if notes and "findings" not in extra:
            v["findings"] = notes
            v["flags"] = list(dict.fromkeys(list(v.get("flags") or []) + [n["code"] for n in notes]))
        self.emit(v)

    def decide(self, job, v):
        """Emits the verdict a rule decided (rules.Verdict)."""
        return self.verdict(job, v.status, v.stage, v.reasons, v.message, **v.extra)

    def start_job(self, job):
        job.started = time.monotonic()
        req = job.req
        task = self.tasks.get(req.get("task_key"))
        if task is None:
            return self.request_failed(job, f"verify job {job.job}: unknown task_key {req.get('task_key')!r}")
        backend = req.get("backend", "triton")
        code = req.get("code", "")
        raw_cuda = backend == "cuda" and native.is_raw_cuda(code)
        try:
            v = self.stage0(job)
        except BadRequest as e:
            return self.request_failed(job, f"verify job {job.job}: {e}")
        if v is not None:
            return self.decide(job, v)
        if not task["ready"]["ok"]:
            h = task["ready"]["hygiene"]
            return self.verdict(job, "UNVERIFIABLE", "correct", [x["code"] for x in h],
                                "the task itself is broken: " + "; ".join(x["message"] for x in h))
        tdtype = task["req"].get("dtype", "fp32")
        if self.device == "cpu" and tdtype == "bf16":
            return self.verdict(job, "UNVERIFIABLE", "compile", ["BF16_ON_INTERPRETER"],
                                "bf16 cannot run on the CPU interpreter")
        if raw_cuda:
            return launch.fork_native(self, job, task)
        if self.device == "cpu" and backend == "cuda":
            return self.verdict(job, "UNVERIFIABLE", "compile", ["BACKEND_UNSUPPORTED"],
                                "CUDA answers need a GPU")
        launch.fork_child(self, job, task)

    def request_failed(self, job, message):
        """A verify request the worker cannot serve (an engine/worker bug): said as an error line, and the job
        is answered as the harness's fault, so that the engine leaves the sample PENDING instead of waiting for
        a verdict until its watchdog fires."""
        self.emit({"op": "error", "job": job.job, "message": message})
        self.decide(job, rules.harness_fault("static", "WORKER_ERROR", message, [message]))

    def stage0(self, job):
        """Stage 0, which needs nothing of the task: the backend, then the static checks (static.py) under the
        request's policy. The verdict it decides, or None (the job goes on; its non-fatal findings are kept
        for the verdict). Raises BadRequest for a request the engine should not have sent."""
        req = job.req
        backend = req.get("backend", "triton")
        code = req.get("code", "")
        if backend == "nki" or backend not in ("triton", "cuda", "torch"):
            return rules.verdict("UNVERIFIABLE", "static", ["BACKEND_UNSUPPORTED"],
                                 f"the {backend} backend cannot be verified here")
        if (backend == "cuda" and native.is_raw_cuda(code)) or req.get("skip_static"):
            return None
        policy = req.get("policy", "strict")
        if policy not in ("strict", "kernelbench"):
            raise BadRequest(f"unknown policy {policy!r}")
        findings = static.check(code, backend, policy)
        v = rules.static_failure(findings)
        if v is not None:
            return v
        job.static_notes = [f.to_json() for f in findings]  # non-fatal: carried into the verdict
        return rules.cpu_fallback(findings, self.device, job.static_notes)

    def screen(self, msg):
        """Stage 0 ahead of the task: the engine sends a sample this way while its task's references are still
        being made. An answer stage 0 rejects gets its verdict now instead of waiting for them (a wrapper that
        calls torch needs no reference to be refused); any other is answered "screened", and the engine sends
        it again as a verify request once the task is ready (stage 0 then runs again: it takes milliseconds).
        A screen is always answered for its job: where stage 0 itself fails, "screened" hands the sample to
        the verify request, which fails it as it always did."""
        job = Job(msg)
        try:
            v = self.stage0(job)
        except BadRequest as e:
            self.emit({"op": "error", "job": job.job, "message": f"screen job {job.job}: {e}"})
            v = None
        except Exception as e:  # noqa: BLE001 - the verify request meets it again, in start_job
            log(f"screen job {job.job}: stage 0 raised {type(e).__name__}: {e}")
            v = None
        if v is None:
            if not msg.get("peek"):  # a look-ahead is screened again when the engine takes it
                self.screened[job.job] = msg.get("task_key")  # its task's references are wanted (evict_refs)
            self.emit({"op": "screened", "job": job.job, "sample_id": msg.get("sample_id")})
        else:
            self.decide(job, v)

    def native_result(self, job, st, logall):
        """Turns cuda-verify's JSON into the job's state, then decides like any other sample."""
        try:
            res = json.loads(job.raw.decode("utf-8", "replace").strip().splitlines()[-1])
            if not isinstance(res, dict) or "status" not in res:
                raise ValueError("no status")
        except (ValueError, IndexError):
            if job.timed_out or job.cancelled:
                return self.conclude(job, st, logall)
            return self.decide(job, rules.native_no_result(st, job.stage, logall))
        job.checks = res.get("checks") or []
        label_of = dict(zip(rules.summary_secrets(self.tasks.get(job.req.get("task_key"))), rules.summary_labels(
            self.tasks.get(job.req.get("task_key")))))
        for c in job.checks:
            if isinstance(c, dict) and c.get("seed") in label_of:
                c["seed"] = label_of[c["seed"]]  # the secret seed stays secret; the check names its label
        job.launches = int(res.get("launches") or 0)
        log = "\n".join(x for x in (res.get("log", ""), logall) if x)
        if res["status"] != "PASS":
            return self.verdict(job, res["status"], res.get("stage", "correct"), res.get("reasons") or [],
                                res.get("message", ""), log=log, kernels=res.get("kernels", []),
                                resources=res.get("resources", []), native=True)
        job.timings = res.get("timings") or None
        job.done = {"launches": job.launches, "kernels": res.get("kernels", [])}
        job.seen = job.expected_keys = {(c.get("shape_index"), c.get("seed")) for c in job.checks}
        job.probe = "ok"  # outputs start as NaN poison and the manifest's kernels are the only code that ran
        job.share = 1.0
        job.notes.append(res.get("message", ""))
        return self.conclude(job, st, log)

    def time_ahead(self, req):
        """A timed sample of a task whose references are ready: the task's reference timing starts now, not
        when the sample reaches its timing stage (the sample's verdict waits for it; it takes an Inductor
        compile, seconds, where a candidate's checks take a fraction of one)."""
        task = self.tasks.get(req.get("task_key"))
        if req.get("timing") and self.device != "cpu" and task and task["ready"]["ok"] and not task.get("evicted") \
                and task["summary"].get("shapes"):
            self.ensure_ref_timing(task)

    def ensure_ref_timing(self, task):
        key = (task["req"]["task_key"], task["sig"])
        if key in self.reftimers:
            return
        rt = RefTimer()
        self.reftimers[key] = rt
        summary = task["summary"]
        ctx = {"task_path": task["path"], "shape": summary["shapes"][0],
               "seeds": [summary["secret_seeds"][summary["seeds"].index(x)] for x in summary["seeds"][:3]],
               "style": task["req"].get("init_inputs_style", "kernelbench"), "device": self.device,
               "l2_bytes": (self.env or {}).get("l2_bytes")}

        req = {"op": "timing", "ctx": ctx, "lock_path": self.lock_path,
               "env": {"TORCHINDUCTOR_CACHE_DIR": os.path.join(self.cache_dir, "trusted", "inductor"),
                       "TRITON_CACHE_DIR": os.path.join(self.cache_dir, "trusted", "triton"),
                       "TORCHINDUCTOR_COMPILE_THREADS": "1"}}

        # it holds three input sets, a fresh copy, the outputs of eager, compiled and timed calls on the GPU
        # beside the candidates (a 6.4 GB task's timing held 42.6 GB on the H200): promised too
        f = (summary.get("footprint") or [None])[0] or {"in": 0, "out": 0, "params": 0}
        promise = CHILD_GPU_BASE + 4 * f["in"] + 3 * f["out"] + f["params"] if self.device != "cpu" else 0
        t0 = time.monotonic()

        def done(result, timed_out):
            if result is None:
                result = {"error": f"timed out after {REF_TIMING_TIMEOUT} s" if timed_out
                          else "the task server died"}
            rt.result = result
            parked, rt.parked = rt.parked, []
            log(f"reference timing {key[0]}: {time.monotonic() - t0:.2f} s (compile {result.get('compile_seconds')} s, "
                f"lock wait {result.get('lock_wait_seconds')} s), {len(parked)} verdicts waited for it")
            for job, st, logall in parked:
                job.mark("unparked")
                self.conclude(job, st, logall)

        self.ask(req, REF_TIMING_TIMEOUT, done, gpu=promise)

    def fail(self, job, status, stage, reasons, message):
        if job.failure is None:
            job.failure = (status, stage, reasons, message)
        launch.kill(job)

    def fail_with(self, job, v):
        """fail() with a rule's verdict (rules.py): decided now, emitted when the child is gone."""
        return self.fail(job, v.status, v.stage, v.reasons, v.message)

    def cancel(self, jid):
        for job in list(self.running.values()):
            if job.job == jid:
                job.cancelled = True
                launch.kill(job)
                return
        for job in list(self.queue):
            if job.job == jid:
                self.queue.remove(job)
                job.cancelled = True
                self.verdict(job, "CANCELLED", "static", [], "cancelled before it started")
                return

    def invalid(self, job, why):
        """A malformed or oversized control stream, or a note that contradicts itself: the candidate's
        failure (its process writes that channel), never the harness's."""
        self.fail(job, "FAIL_SANDBOX", job.stage, ["RESULT_STREAM_INVALID"],
                  f"the candidate's result channel carried {why}"[:400])

    def send_command(self, job, cmd):
        try:
            transport_write(job.ctl, (json.dumps(cmd) + "\n").encode())
        except OSError:
            pass  # the child is gone: its exit tells

    def next_call(self, job):
        """Sends the next call of the plan (with its secret seed), or the end (with the timing seeds)."""
        task = self.tasks[job.req["task_key"]]
        s = task["summary"]
        if job.failure is not None:
            return
        if not job.plan and job.probe_failure:
            return self.fail(job, "FAIL_SHAM", "proof", ["OUTPUT_NOT_FROM_KERNEL"], job.probe_failure)
        if job.plan:
            si, label, probe = job.plan.pop()
            job.call = (si, label, probe)
            cmd = {"do": "call", "si": si, "seed": s["secret_seeds"][s["seeds"].index(label)]}
            if taskref.input_set_of(s, si) != "task":
                cmd["set"] = taskref.input_set_of(s, si)  # the child derives the set's inputs (inputsets)
            if probe:
                cmd["poison"] = job.poison
            job.call_sent = time.monotonic()
            return self.send_command(job, cmd)
        job.call = None
        cmd = {"do": "end", "share_seed": taskref.secret_seed()}
        # CUDA answers' proof (their kernels' GPU share) comes after this command; conclude checks it
        proved = job.probe == "ok" or job.req.get("backend") == "cuda"
        if job.want_timing and job.seen == job.expected_keys and proved:
            job.timing_labels = s["seeds"][:3]
            cmd["timing"] = {"seeds": [s["secret_seeds"][s["seeds"].index(x)] for x in job.timing_labels]}
        self.send_command(job, cmd)

    def on_message(self, job, msg):
        t = msg["t"]
        if t == "stage":
            stage = msg.get("stage")
            if stage not in ("compile", "correct", "proof", "queue", "timing"):
                return self.invalid(job, f"an unknown stage {str(stage)[:40]!r}")
            job.stage = stage
            job.mark(stage)
            key = {"proof": "correct"}.get(job.stage, job.stage)
            job.deadline = time.monotonic() + float(job.timeouts.get(key, 3600 if key == "queue" else 120))
            self.stage_clock(job)
        elif t == "violation":
            job.violations.append({"code": str(msg.get("code"))[:40], "detail": str(msg.get("detail"))[:1000]})
            v = job.violations[-1]
            self.fail(job, "FAIL_SANDBOX", job.stage, [v["code"]], f"the sample tried something the sandbox forbids: "
                      f"{v['detail']}")
        elif t == "ready":
            if "ready" in job.marks:
                return self.invalid(job, "a second ready")
            job.mark("ready")
            self.ready_to_call(job)
        elif t == "wall":
            self.on_wall(job, msg)
        elif t == "output":
            if job.wall and job.wall_pending != 1:
                return self.fail(job, "FAIL_SANDBOX", job.stage, ["WALL_TAMPERED"],
                                 f"{job.wall_pending} runtime wall reports for one call (exactly one is written "
                                 "when its forward ends)")
            job.wall_pending = 0
            if job.call_sent is not None and job.call is not None:
                which = "first_call" if "first_call" not in job.spent else ("probe" if job.call[2] else "checks")
                job.spent[which] = job.spent.get(which, 0.0) + time.monotonic() - job.call_sent
                job.call_sent = None
            self.on_output(job, msg)
            if job.failure is None and job.infra is None and job.judging is None:
                self.next_call(job)
        elif t == "build":
            self.builds.on_message(job, msg)
        elif t == "timed_output":
            self.on_timed_output(job, msg)
        elif t == "share":
            self.on_share(job, msg)
        elif t == "error":
            job.error = {"stage": str(msg.get("stage", job.stage)), "code": str(msg.get("code", "RUNTIME_ERROR")),
                         "message": str(msg.get("message", ""))[:2000],
                         "traceback": str(msg.get("traceback", ""))[-8000:]}
            if job.error["stage"] not in ("compile", "correct", "proof", "queue", "timing"):
                job.error["stage"] = job.stage
        elif t == "infra":
            if msg.get("over") is True and job.retries >= 1:
                # out of device memory beyond its admission on a retry too: its own use, not the device's load
                job.error = {"stage": job.stage, "code": "RUNTIME_ERROR", "traceback": "",
                             "message": f"{msg.get('message', '')} (again on retry {job.retries})"[:2000]}
                return
            job.infra = str(msg.get("message", ""))[:500]
            # the device was full within its admission: the retry runs with nothing beside it; beyond its
            # admission beside others (admission may have underestimated them): once more as it was
            job.alone = msg.get("oom") is True and msg.get("over") is not True
        elif t == "timings":
            tm = msg.get("timings")
            if not isinstance(tm, list) or not all(isinstance(x, dict) and isinstance(x.get("median_ms"), (int, float))
                                                   for x in tm):
                return self.invalid(job, "timings that are not a list of measurements")
            job.timings = [{k: x.get(k) for k in ("shape_index", "which", "median_ms", "mean_ms", "std_ms", "runs")}
                           for x in tm[:4]]
            for x in job.timings:
                x["which"] = "candidate"
        elif t == "done":
            job.mark("done")
            job.done = {"launches": int(msg.get("launches") or 0) if str(msg.get("launches", 0)).isdigit() else 0,
                        "kernels": [str(k)[:200] for k in (msg.get("kernels") or [])[:64]]}
        elif t == "note":
            job.notes.append(str(msg.get("message", ""))[:500])
        elif t == "state_dict":
            if msg.get("missing") or msg.get("unexpected"):
                job.notes.append(f"state_dict copy: missing {str(msg.get('missing'))[:300]}, "
                                 f"unexpected {str(msg.get('unexpected'))[:300]}")
        elif t == "sandbox":
            job.mark("sandbox")
            job.notes.append(f"sandbox: {str(msg.get('applied'))[:1000]}")
        elif t == "profile" and msg.get("error"):
            job.notes.append(f"profiler: {str(msg['error'])[:300]}")
        elif t != "profile":
            self.invalid(job, f"a message of unknown type {t[:40]!r}")

    def on_wall(self, job, msg):
        """A runtime wall report (wall.py): written by the wall's C++ when a forward window closes, and once
        at the end (the seal); a missing, extra, out-of-order or tampered one fails the job."""
        if not job.wall or job.wall_sealed:
            return self.fail(job, "FAIL_SANDBOX", job.stage, ["WALL_TAMPERED"], "a runtime wall report nobody "
                             "expected (forged by the answer, or after the seal)")
        cost = msg.get("cost_us")
        if isinstance(cost, (int, float)) and cost >= 0:
            job.wall_seconds += cost / 1e6
        expected = job.wall_serial + 1 if msg.get("kind") == "window" else job.wall_serial
        bad = wall.check_report(msg, expected)
        if bad is not None and bad[0] == "HARNESS":
            job.infra, job.infra_code = bad[2][:500], bad[1]  # the child's refusal error after it is not the sample's
            bad = None
        if bad is not None:
            return self.fail(job, bad[0], job.stage if bad[0] == "FAIL_SANDBOX" else "correct", [bad[1]], bad[2])
        if msg["kind"] == "seal":
            job.wall_sealed = True
        else:
            job.wall_serial = expected
            job.wall_pending += 1

    def on_share(self, job, msg):
        share = msg.get("share")
        job.share = float(share) if isinstance(share, (int, float)) else None
        if job.req.get("backend") == "cuda":
            # the kernels its own extension defines (exact names, wall.kernel_names) must take GPU time
            if job.share == 0:
                job.probe = "sham"
                return self.fail(job, "FAIL_SHAM", "proof", ["OUTPUT_NOT_FROM_KERNEL"],
                                 "the sample's CUDA kernels took no GPU time in the forward")
            if not job.wall:
                # no runtime wall, so no ablation probe (launch.py): the launch count and GPU share must do
                job.probe = "ok"
                job.notes.append("proof: CUDA extension kernels counted in the profiler (no ablation probe)")

    def read_outputs(self, job, task, si, label, msg):
        """Validates a note's metadata against the reference: (the expected metas, the check's entry), or
        (None, entry) after failing the job. check() then reads the outputs from the shared buffer."""
        entry = {"shape_index": si, "shape": task["summary"]["shapes"][si], "seed": label}
        if taskref.input_set_of(task["summary"], si) != "task":
            entry["input_set"] = taskref.input_set_of(task["summary"], si)
            tol = taskref.set_atol(task["summary"], si)
            if tol != (task["summary"]["atol"], task["summary"]["rtol"]):
                entry["atol"], entry["rtol"] = tol  # the set's own (taskref.set_atol: zero for `exact`)
        meta = msg.get("meta")
        if meta is None:
            types = [str(x)[:60] for x in (msg.get("types") or [])[:16]] if isinstance(msg.get("types"), list) else []
            entry.update({"ok": False, "note": f"outputs of type {types} are not plain tensors"})
            job.checks.append(entry)
            self.fail(job, "FAIL_SHAM", "correct", ["OUTPUT_NOT_FROM_KERNEL"],
                      f"forward returned {types} instead of plain tensors (a lazy output)")
            return None, entry
        expected = self.expected_metas(task, si, label)
        why = transport.check_metas(meta, expected, self.device)
        if why is not None:
            entry.update({"ok": False, "max_abs": None, "max_rel": None, "mismatches": 0, "nonfinite_mismatches": 0,
                          "note": why})
            job.checks.append(entry)
            self.fail(job, "FAIL_MISMATCH", "correct", ["MISMATCH"], f"shape {si} seed {shown(task, si, label)}: {why}")
            return None, entry
        return expected, entry

    def on_output(self, job, msg):
        task = self.tasks[job.req["task_key"]]
        if job.call is None:
            return self.invalid(job, "outputs nobody asked for")
        si, label, probe = job.call
        atol, rtol = taskref.set_atol(task["summary"], si)
        secret = task["summary"]["secret_seeds"][task["summary"]["seeds"].index(label)]
        if msg.get("si") != si or msg.get("seed") != secret:
            return self.invalid(job, f"outputs for a call other than the one asked for")
        launches = msg.get("launches", 0)
        launches = launches if type(launches) is int and launches >= 0 else 0
        job.launches += launches
        if probe:
            return self.on_probe(job, task, si, label, msg)
        if (si, label) in job.seen:
            return self.invalid(job, f"a second result for shape {si} seed {label}")
        job.seen.add((si, label))
        metas, entry = self.read_outputs(job, task, si, label, msg)
        if metas is None:
            return

        def checked(res):
            entry.update(res)
            job.checks.append(entry)
            v = rules.checked_call(si, shown(task, si, label), res, atol, rtol, msg.get("mutated"), launches)
            if v is not None:
                return self.fail_with(job, v)
            if msg.get("overlap") is False:
                job.notes.append(f"shape {si} seed {label}: an output's memory was not passed to any of the "
                                 "sample's kernels")
        self.check(job, task, si, label, checked)

    def check(self, job, task, si, label, then):
        """Compares one call's outputs (in the job's buffer, their metadata checked) with the reference and
        hands the check dict to then(res): here against the stored reference, or, for a recompute shape, by
        the judge on the device, answered later in the loop (job.judging holds the job's next step
        meanwhile, and its stage's clock stops: the worker's comparing is not the sample's time). A judge
        that fails is the harness's fault: the job is retried (job.infra), never failed."""
        s = task["summary"]
        metas = self.expected_metas(task, si, label)
        t0 = time.monotonic()
        if not (s.get("recompute") or [False] * (si + 1))[si]:
            cand = job.buffer.arrays(metas)
            res = compare.compare(self.reference(task, si, label), cand, *taskref.set_atol(s, si))
            del cand
            job.spent["compare"] += time.monotonic() - t0
            if job.deadline is not None:
                job.deadline += time.monotonic() - t0
            return then(res)
        req = {"task_path": task["path"], "code_hash": s["code_hash"], "shape": s["shapes"][si],
               "secret": s["secret_seeds"][s["seeds"].index(label)], "input_set": taskref.input_set_of(s, si),
               "style": task["req"].get("init_inputs_style", "kernelbench"), "metas": metas}
        req["atol"], req["rtol"] = taskref.set_atol(s, si)
        if si not in job.judged:
            job.judged.add(si)
            job.notes.append(f"shape {si}: compared on the device by the judge (its references are too large to "
                             "keep: recomputed for each check)")
        if job.buffer_id is None:
            job.buffer_id = judge.buffer_id(job.buffer.fd)
        if job.deadline is not None:
            job.deadline_left = max(0.0, job.deadline - t0)
        job.deadline = None

        def answered(res, error):
            job.judging = None
            job.spent["compare"] += time.monotonic() - t0
            if job.deadline_left is not None and job.settle_later is None:
                job.deadline = time.monotonic() + job.deadline_left
            job.deadline_left = None
            if error is not None:
                log(f"job {job.job}: {error}")
                if job.failure is None and job.infra is None:
                    job.infra = str(error)[:500]
                    launch.kill(job)
            elif job.failure is None and job.infra is None and not job.cancelled:
                then(res)
                if job.failure is None and job.infra is None and job.call is not None and job.settle_later is None:
                    self.next_call(job)
            if job.settle_later is not None:  # the child ended while its check was made: decided now
                st, logall = job.settle_later
                job.settle_later = None
                self.settle(job, st, logall)
        job.judging = answered
        self.judge.submit(req, job.buffer.fd, answered)

    def on_probe(self, job, task, si, label, msg):
        """The probe's call: its launches only wrote the secret poison into their output arguments, so an
        output the kernels produced is that poison; one that is anything else was computed without them."""
        if "error" in msg:
            # The probe is a call like the checks: only what the launches write differs. A forward that
            # fails on it looked at its kernels' results to decide what to do (a canary), which is no proof
            # that its outputs came from them.
            job.probe = "sham"
            return self.probe_failed(job, "with its launches made to write a secret poison value, the forward "
                                          f"fails ({str(msg['error'])[:300]}): it inspects what its kernels "
                                          "computed instead of returning it")
        if msg.get("meta") is None:
            return self.read_outputs(job, task, si, label, msg)
        why = transport.check_metas(msg["meta"], self.expected_metas(task, si, label), self.device)
        if why is not None:
            # the checks got the reference's structure: one that changes when the launches only write poison
            # means the forward looks at what its kernels did and answers something else
            job.probe = "sham"
            return self.probe_failed(job, "with its launches made to write a secret poison value, the forward's "
                                          f"outputs change: "
                             f"{why}")
        for i, (dt, a) in enumerate(job.buffer.arrays(self.expected_metas(task, si, label))):
            ok, what = compare.is_poison(dt, a, job.poison)
            if not ok:
                job.probe = "sham"
                return self.probe_failed(job, f"output {i} is not what the sample's kernels wrote: with its launches "
                                              "made to "
                                 f"write a secret poison value, the output {what}")
        job.probe = "ok"

    def probe_failed(self, job, message):
        """A failed probe is decided after the checks (which come in a secret order around it): a check that
        fails names the more precise fault (a mismatch, mutated inputs)."""
        job.probe_failure = message

    def on_timed_output(self, job, msg):
        """One timed call, chosen by the child at random, is compared like a check."""
        task = self.tasks[job.req["task_key"]]
        s = task["summary"]
        labels = getattr(job, "timing_labels", None) or []
        secret = msg.get("seed")
        label = next((x for x in labels if s["secret_seeds"][s["seeds"].index(x)] == secret), None)
        if label is None or msg.get("si") != 0 or job.timed_checked:
            return self.invalid(job, "a timed output for a call that was not timed")
        job.timed_checked = True
        if self.read_outputs(job, task, 0, label, msg)[0] is None:
            return

        def checked(res):
            if not res["ok"]:
                return self.fail_with(job, rules.mismatch(0, label, res, *taskref.set_atol(s, 0),
                                                             what="a timed call, "))
            job.notes.append(f"a timed call's output (seed {label}) matches the reference")
        self.check(job, task, 0, label, checked)

    def read_child(self, job):
        if job.native:
            data, eof = drain(job.fd)
            job.raw += data
            if len(job.raw) > 64 << 20:
                self.fail(job, "CRASH", job.stage, ["SIGNAL"], "native verification wrote too much")
                return self.finish(job)
            if eof:
                self.finish(job)
            return
        while True:
            try:
                data = os.read(job.fd, 1 << 20)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                if job.reader.leftover() and job.failure is None:
                    self.invalid(job, "an unterminated message")
                self.finish(job)
                return
            if job.failure is not None or job.infra is not None:
                continue  # the verdict is decided (or the job retried); whatever else comes is not read
            try:
                for msg in job.reader.feed(data):
                    self.on_message(job, msg)
                    if job.failure is not None or job.infra is not None:
                        break
            except transport.StreamInvalid as e:
                self.invalid(job, str(e))
            except Exception as e:  # the stream comes from untrusted code: never let it take the worker down
                import traceback
                log(traceback.format_exc())
                self.invalid(job, f"a message the worker could not use ({type(e).__name__}: {e})")

    def finish(self, job):
        self.sel.unregister(job.fd)
        del self.running[job.fd]
        os.close(job.fd)
        if job.ctl is not None:
            os.close(job.ctl)
        if job.buffer is not None:
            if job.buffer_id is not None:
                self.judge.release(job.buffer_id)  # its pinned mapping in the judge, after any check of it
            job.buffer.close()
            job.buffer = None
        self.unhold(job)
        sched.cleanup_job(job)
        self.grant_room()
        launch.kill(job)  # whatever is left of the group
        st = launch.reap(job)
        if getattr(job, "cgroup", None) and "error" not in job.cgroup:
            # the kernel's OOM killer in the job's own cgroup: its memory limit, the sample's fault
            job.oom_killed = cgroups.Budgets.oom_kills(job.cgroup) > 0
            cgroups.Budgets.remove(job.cgroup)
        job.pid = None  # reaped: its number may be another process's now (a late judge answer kills nothing)
        job.mark("exit")
        logtext = ""
        try:
            with open(job.log_path, "rb") as f:
                f.seek(0, 2)
                size = f.tell()
                f.seek(max(0, size - 16000))
                logtext = f.read().decode("utf-8", "replace")
        except OSError:
            pass
        shutil.rmtree(job.scratch, ignore_errors=True)
        if job.judging is not None:  # its last check is still with the judge: decided when it is answered
            job.settle_later = (st, logtext)
            return
        self.settle(job, st, logtext)

    def settle(self, job, st, logtext):
        """Decides what a job whose child is gone comes to: a retry (the harness failed), the native path's
        result, or its verdict (conclude)."""
        notes = "\n".join(job.notes)
        logall = "\n".join(x for x in (notes, logtext) if x)
        if job.infra and not job.cancelled:
            if job.retries < rules.MAX_INFRA_RETRIES:
                again = Job(job.req)
                again.retries = job.retries + 1
                again.alone = job.alone
                self.queue.insert(0, again)
                log(f"job {job.job}: the harness failed ({job.infra}); retry {again.retries}")
                return
            return self.decide(job, rules.harness_failed(job.infra, job.stage, job.retries + 1, logall,
                                                         job.infra_code))
        if job.native and not job.failure:
            return self.native_result(job, st, logall)
        if job.timed_out and not job.cancelled and job.load and job.load["loaded"] and not job.violations \
                and not getattr(job, "oom_killed", False):
            # out of time while waiting for a CPU (issue 31 point 3): the machine's load, not the sample; it runs
            # again alone (admission starts nothing beside it) with the full limit
            faults = job.load_faults + [f"attempt {len(job.load_faults) + 1}: the {job.stage} stage ran past its "
                                        f"{job.timeouts.get(job.stage, 120)} s limit, {job.load['evidence']}"]
            if len(job.load_faults) < rules.MAX_LOAD_RETRIES:
                again = Job(job.req)
                again.alone, again.load_faults, again.outside_kills = True, faults, job.outside_kills
                self.queue.insert(0, again)
                log(f"job {job.job}: the {job.stage} stage ran out of time under load ({job.load['evidence']}); "
                    f"retry alone")
                return
            return self.decide(job, rules.harness_fault(
                job.stage, "LOAD_TIMEOUT", "the sample ran out of time on every attempt while the machine was loaded "
                "(it waited for a CPU most of its stage): " + "; ".join(faults), faults, logall))
        why = rules.killed_from_outside(job, st)
        if why:
            # SIGKILL that the worker did not send (the OOM killer, an operator, the zygote's death): the
            # harness's fault until it follows the sample on every attempt
            kills = job.outside_kills + [f"attempt {job.retries + 1}: {why} in the {job.stage} stage"]
            if job.retries < rules.MAX_INFRA_RETRIES and not job.cancelled:
                again = Job(job.req)
                again.retries, again.alone, again.outside_kills = job.retries + 1, job.alone, kills
                self.queue.insert(0, again)
                log(f"job {job.job}: the candidate was killed from outside ({why}); retry {again.retries}")
                return
            return self.decide(job, rules.killed_every_attempt(kills, job.stage, logall))
        self.conclude(job, st, logall)

    def conclude(self, job, st, logall):
        """Decides the verdict of a job whose child is gone (rules.py), unless it was timed and the task's
        reference timing is still running: then it waits, parked on the task's RefTimer."""
        v = rules.ended_early(job, st, logall) or rules.wall_unsealed(job, logall)
        if v is not None:
            return self.decide(job, v)
        job.launches = max(job.launches, job.done.get("launches", 0))
        v = rules.unproven(job, logall)
        if v is not None:
            return self.decide(job, v)
        if job.timings:
            # the candidate was timed: its verdict waits for the task's reference timing
            task = self.tasks.get(job.req.get("task_key"))
            rt = self.reftimers.get((task["req"]["task_key"], task["sig"])) if task else None
            if rt is not None and rt.result is None:
                job.mark("parked")
                rt.parked.append((job, st, logall))
                return
            if rt is not None:
                r = rt.result
                job.timings = [t for t in job.timings if t.get("which") == "candidate"] + r.get("timings", [])
                job.bytes_moved = r.get("bytes_moved")
                ref_notes = list(r.get("notes", []))
                if r.get("error"):
                    ref_notes.append(f"reference timing failed: {r['error']}")
                if ref_notes:
                    logall = "\n".join(ref_notes + [logall])
        return self.decide(job, rules.passed(job, logall, (self.env or {}).get("gpu", ""), self.device))

    @staticmethod
    def stage_clock(job):
        """The candidate's scheduler times when its stage's clock starts (rules.stage_load reads them at the
        deadline)."""
        job.sched0 = (time.monotonic(), probes.sched_times(job.pid))

    def check_deadlines(self):
        now = time.monotonic()
        for child in list(self.trusted.values()):
            if now > child.deadline:
                self.read_asked(child, timed_out=True)
        for job in list(self.running.values()):
            if job.deadline and now > job.deadline and not job.timed_out and job.failure is None:
                job.timed_out = True
                t0, before = job.sched0 or (job.started, None)
                beside = sum(1 for j in self.running.values() if j is not job) + len(self.trusted) + \
                    (len(self.builds.running) if self.builds is not None else 0)
                job.load = rules.stage_load(now - t0, before, probes.sched_times(job.pid), job.alone, beside)
                launch.kill(job)
        self.judge.expire()
        if self.builds is not None:
            self.builds.expire()

    def log_state(self, every=10.0):
        """A line in the worker's log every `every` seconds while it has work: what runs, what waits and what
        is promised (where a run's time goes, read next to the verdicts' phases)."""
        now = time.monotonic()
        if now - getattr(self, "_state_at", 0.0) < every or not (self.running or self.queue or self.trusted):
            return
        self._state_at = now
        gb = lambda n: f"{n / (1 << 30):.1f}"
        granted = sum(1 for j in self.running.values() if j.granted)
        log(f"state: {len(self.running)} running ({granted} granted, {sum(1 for j in self.running.values() if j.judging)}"
            f" at the judge), {len(self.queue)} queued, {sum(1 for w in self.room_waiting if isinstance(w, Job))} jobs and "
            f"{sum(1 for w in self.room_waiting if isinstance(w, Asked))} references waiting for {gb(self.room_wanted())} GB; "
            f"promised {gb(self.promised_gpu)} GB + shared {gb(self.shared_gpu())} GB of {gb(self.gpu_budget or 0)} GB, "
            f"host {gb(self.promised_host)} of {gb(self.host_budget or 0)} GB; task servers busy "
            f"{sum(1 for s in self.ref_servers if s.busy)}/{len(self.ref_servers)}, waiting {len(self.ref_waiting)} "
            f"references, {len(self.timing_waiting)} timings/checks; judge queue {len(self.judge.waiting)}")

    def serve(self):
        os.set_blocking(0, False)
        self.sel.register(0, selectors.EVENT_READ, None)
        stdin_open = True
        while True:
            # FIFO under admission: a job whose footprint does not fit beside the running ones waits (and the
            # jobs behind it with it) until enough have finished; alone, it always runs
            while self.queue and len(self.running) < self.parallel and not self.quit and self.admit(self.queue[0]):
                self.start_job(self.queue.pop(0))
            if (self.quit or not stdin_open) and not self.running and (self.quit or not self.queue) \
                    and not self.trusted and (self.quit or not self.judge.busy()):
                break
            timeout = None
            deadlines = [j.deadline for j in self.running.values() if j.deadline is not None] + \
                [c.deadline for c in self.trusted.values()] + \
                ([self.judge.deadline()] if self.judge.deadline() is not None else []) + \
                ([self.builds.deadline()] if self.builds and self.builds.deadline() is not None else [])
            if deadlines:
                timeout = max(0.0, min(deadlines) - time.monotonic()) + 0.01
            if self.queue and self.running:
                timeout = min(timeout, 1.0) if timeout is not None else 1.0  # admission looks again
            for key, _ in self.sel.select(timeout):
                if key.data is None:
                    try:
                        data = os.read(0, 1 << 20)
                    except BlockingIOError:
                        continue
                    if not data:
                        stdin_open = False
                        self.sel.unregister(0)
                        continue
                    self.inbuf += data
                    while b"\n" in self.inbuf:
                        line, self.inbuf = self.inbuf.split(b"\n", 1)
                        if line.strip():
                            self.handle(line.decode("utf-8", "replace"))
                elif isinstance(key.data, Asked):
                    self.read_asked(key.data)
                elif key.data is self.judge:
                    self.judge.read()
                elif isinstance(key.data, sched.Build):
                    self.builds.read(key.data)
                else:
                    self.read_child(key.data)
            self.check_deadlines()
            self.log_state()
        for job in list(self.running.values()):
            launch.kill(job)
        if self.session_dir:
            shutil.rmtree(self.session_dir, ignore_errors=True)  # its seeds were this session's secret
        if self.zygote is not None:
            self.zygote.stop()
        self.judge.stop()
        if self.builds is not None:
            self.builds.stop()
        for srv in self.ref_servers:
            srv.stop()
        if self.budgets is not None:
            self.budgets.close()
