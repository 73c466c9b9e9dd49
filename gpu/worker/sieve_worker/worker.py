"""The warm worker: speaks JSON lines with the engine, computes references in trusted forked children,
runs static checks, forks one sandboxed child per candidate, compares its outputs and decides verdicts.

Single-threaded on purpose: an event loop over stdin and the children's pipes (forking from a process
with live threads invites deadlocks in the child). The worker never initialises CUDA (children do) and
never runs torch compute itself (references run in a forked child, so no OpenMP pool exists at fork).

This module is the loop and the protocol: requests in, verdicts out, the job queue, the session's setup
(hello) and the deadlines. Worker is assembled from mixins, one per role, over the state __init__ makes: the
task servers that compute and time references (tasks/serving.py), the candidate's messages and the
comparison of its outputs (candidate/messages.py), a job's start, end and verdict (candidate/verdicts.py),
what each child and server is promised of the machine's memory (sandbox/admission.py). What each child gets
and how it starts is launch.py's (the trust boundary); what a job's results make of it, rules.py's (pure
functions); what the machine is, probes.py's.
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
from .rules import JUDGE_TIMEOUT, REF_PARALLEL
from .sandbox import cgroups, probes, taskbox
from .data import judge
from .candidate import launch, wall
from .candidate.job import Job
from .candidate.messages import CandidateMessages
from .candidate.verdicts import Verdicts
from .extensions import sched
from .tasks.serving import TaskServing
from .sandbox.admission import GPU_RESERVE, HOST_RESERVE, Admission, Asked


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


class Worker(TaskServing, CandidateMessages, Verdicts, Admission):
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
        self.timed = device != "cpu"  # whether verify requests' "timing" is honoured (hello time_on_cpu: the CPU too)
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
        # a test of the timing path on the CPU (tests/CMakeLists.txt WorkerTimingCpu): the interpreted kernels and
        # the eager reference timed with the same calls, the wall and the same inputs as on a GPU; the figures
        # mean nothing, the verdicts and the harness's phases are what is checked
        self.timed = self.device != "cpu" or msg.get("time_on_cpu") is True
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
                self.wall_so, took = wall.build(wall.cache_dir(), log)
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
