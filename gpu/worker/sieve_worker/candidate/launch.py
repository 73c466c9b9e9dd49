"""Launching children: the candidate's context and fds, the zygote that forks every candidate, the status
pipe that tells its pid, sandbox and wait status, and the trusted fork that runs a raw CUDA answer.

This is the trust boundary for untrusted code: what each child gets (fds, environment, paths) and in which
order is decided here, and nowhere else. The functions that take the worker (worker.Worker) read its settings
and register the child in its loop; the ones that take a job alone touch nothing but that job's process.
"""
import hashlib
import json
import os
import secrets
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import time

from .. import WORKER_DIR, log
from . import native
from .kill import kill  # noqa: F401  (launch.kill: the worker's name for it)
from ..extensions import sched
from ..sandbox import sandbox
from ..data import transport

FP32_PRECISIONS = ("deployed", "ieee")  # Triton's default for fp32 tl.dot (TF32 on the GPU), or full fp32
CANDIDATE_CACHE_DAYS = 14  # an answer's compiler caches unused this long are removed (remove_unused_caches)


def poison_secret():
    """The probe's poison value: secret per job, finite in every float dtype, large enough that a torch
    result added to or multiplied by it is never mistaken for it."""
    r = secrets.randbits(32)
    return (-1 if r & 1 else 1) * (1000.0 + (r >> 1) % 29000 + ((r >> 16) % 97) / 128.0)


def remove_unused_caches(root, days):
    """Answers' compiler caches (candidate_caches) that no job used for `days` days."""
    cutoff = time.time() - days * 86400
    try:
        names = os.listdir(root)
    except OSError:
        return
    for n in names:
        p = os.path.join(root, n)
        try:
            if os.stat(p).st_mtime < cutoff:
                shutil.rmtree(p, ignore_errors=True)
        except OSError:
            continue


def fork_child(worker, job, task):
    ctx, fds = candidate_ctx(worker, job, task)
    launch_candidate(worker, job, ctx, fds)


def candidate_ctx(worker, job, task):
    """The candidate's context (JSON-able: paths, shapes, limits; no seeds, no references) and the fds it
    gets, by name ("result", "ctl", "lock", "log", "out": the shared output buffer); the worker's ends are
    kept on the job. launch_candidate hands the fds over and closes them here."""
    req = job.req
    scratch = os.path.join(worker.scratch_root, f"job-{job.job}-{os.getpid()}-{int(time.time() * 1000) % 10**8}")
    os.makedirs(scratch, mode=0o700)
    name = f"sieve_candidate_{job.job}"
    cand = os.path.join(scratch, f"{name}.py")
    with open(cand, "w") as f:
        f.write(req.get("code", ""))
    logp = os.path.join(scratch, "child.log")
    logfd = os.open(logp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o644)
    if os.geteuid() == 0:
        for p in (scratch, cand, logp):
            os.chown(p, 65534, 65534)
    summary = task["summary"]
    timeouts = {"compile": 120, "correct": 120, "timing": 120, **(req.get("timeouts") or {})}
    limits = {"memory_mb": 16384, "processes": 64, **(req.get("limits") or {})}
    env = {**candidate_caches(worker.cache_dir, req.get("code", "")), "TORCHINDUCTOR_COMPILE_THREADS": "1"}
    if worker.device == "cpu":
        env["TRITON_INTERPRET"] = "1"
    # one shared buffer for the job, as large as the largest call's outputs (transport.py)
    out_size = max((transport.layout([(d, sh) for d, sh in m])[1] for per_shape in summary["metas"]
                    for m in per_shape), default=0)
    job.buffer = transport.Buffer(out_size)
    # the buffer's pages are the candidate's to fill (charged to its cgroup; on the CPU its address space too)
    limits["memory_mb"] = int(limits["memory_mb"]) + (job.buffer.size >> 20) + 1
    job.cgroup = candidate_cgroup(worker, job, limits)
    ctx = {"scratch": scratch, "candidate_path": cand, "candidate_module": name, "task_path": task["path"],
           "cgroup": job.cgroup,
           "style": task["req"].get("init_inputs_style", "kernelbench"), "shapes": summary["shapes"],
           "device": worker.device if worker.device != "cpu" else "cpu",
           "limits": limits, "backend": req.get("backend", "triton"),
           "wall": bool(worker.wall_so), "policy": req.get("policy", "strict"),
           "allowed_dirs": [scratch, env["TRITON_CACHE_DIR"], env["TORCHINDUCTOR_CACHE_DIR"],
                            env["TORCH_EXTENSIONS_DIR"]],
           "env": env, "cpu_seconds": int(sum(timeouts.values()) + 30),
           "nproc": int(limits["processes"]) * worker.parallel + 64,
           "threads": 1 if worker.device == "cpu" else 4, "time_on_cpu": worker.device == "cpu" and worker.timed, "l2_bytes": (worker.env or {}).get("l2_bytes"),
           "out_size": job.buffer.size, "poison_bytes": job.buffer.size if worker.device != "cpu" else 0,
           "gpu_promise": job.gpu_full + job.timing_extra, "alone": bool(job.alone),
           "timing_limits": {k: float(v) if k == "max_seconds" else int(v)
                             for k, v in (req.get("timing_limits") or {}).items()
                             if k in ("max_runs", "max_seconds")}}
    job.wall = bool(worker.wall_so)
    sched.prepare_job(worker, job, ctx)  # its built extensions' read-only folder (sched.py)
    job.want_timing = bool(req.get("timing")) and worker.timed
    if job.want_timing:
        worker.ensure_ref_timing(task)
    # the calls, in a secret order: every (shape, seed) check, and one probe (a call like any other, on the
    # inputs of a random check, whose launches only write poison: a Triton answer's kernels through the
    # launch hook, a CUDA answer's extension functions through the runtime wall, wall.py)
    plan = [(si, sd, False) for si, sds in enumerate(shape_seeds(summary)) for sd in sds]
    if req.get("backend", "triton") != "cuda" or job.wall:
        si, sd, _ = plan[secrets.randbelow(len(plan))]
        plan.append((si, sd, True))
    secrets.SystemRandom().shuffle(plan)
    job.plan = plan
    job.poison = poison_secret()
    job.expected_keys = {(si, sd) for si, sd, probe in plan if not probe}
    job.expected = len(job.expected_keys)
    job.timeouts = timeouts
    r, w = os.pipe2(os.O_CLOEXEC)
    cr, cw = os.pipe2(os.O_CLOEXEC)
    lock_fd = os.open(worker.lock_path, os.O_RDWR | os.O_CLOEXEC)
    os.set_blocking(r, False)
    job.fd, job.ctl, job.scratch, job.log_path = r, cw, scratch, logp
    # the child gets its own descriptor of the buffer (closed here after the spawn, like the others)
    return ctx, {"result": w, "ctl": cr, "lock": lock_fd, "log": logfd, "out": os.dup(job.buffer.fd)}


CPU_CANDIDATE_MEMORY = 2 << 30  # the most a candidate's cgroup holds on the CPU path (candidate_cgroup)


def candidate_cgroup(worker, job, limits):
    """The job's cgroup (cgroups.py): its memory limit is limits.memory_mb with its scratch tmpfs, but never
    more than its share of the host's budget (budget / parallel), so that the candidates the worker runs at
    once cannot take more than the budget together; pids as RLIMIT_NPROC allows one job; equal CPU weight."""
    budgets = getattr(worker, "budgets", None)
    if budgets is None or budgets.mode is None:
        return None
    want = (int(limits["memory_mb"]) + int(limits.get("scratch_mb", 512))) << 20
    share = (worker.host_budget or want) // max(1, worker.parallel)
    if worker.device == "cpu":
        # the CPU interpreter's shapes are capped (cpu_max_elements): an honest candidate allocates megabytes
        # beside what it shares with the zygote (charged to the zygote's cgroup); one that fills gigabytes with
        # its own kernel is stopped at CPU_CANDIDATE_MEMORY in seconds, not at its share of the host after minutes
        share = min(share, CPU_CANDIDATE_MEMORY)
    else:
        # on a GPU, admission (admission.py) already keeps the jobs it runs at once within the host budget:
        # a job with GB-sized outputs (KernelBench's shipped shapes) may take more than an equal share
        share = worker.host_budget or want
    return budgets.make(f"job-{job.job}-{os.getpid()}-{int(time.time() * 1000) % 10**8}",
                        max(256 << 20, min(want, share)), pids=int(limits["processes"]) + 64, cpu_weight=100)


def shape_seeds(summary):
    """The seed labels each shape is checked at: every seed, or the first n where the shape says n (a full-size
    derived shape of a large task: taskref.task_shapes)."""
    seeds = summary["seeds"]
    counts = summary.get("shape_seeds") or [len(seeds)] * len(summary["shapes"])
    return [seeds[:n] for n in counts]


def candidate_caches(cache_dir, code):
    """The compiler caches of an answer: cache_dir/candidates/<hash of its code>/{triton,inductor,
    extensions}, as environment variables. An answer can plant entries only where the same code looks
    (it could do the same by running), never under another answer's kernels; a re-verified answer keeps
    its compiled kernels and extensions. The folders are world-writable and sticky: each job runs as a
    uid of its own."""
    root = os.path.join(cache_dir, "candidates", hashlib.sha256(code.encode()).hexdigest()[:32])
    env = {}
    for var, d in (("TRITON_CACHE_DIR", "triton"), ("TORCHINDUCTOR_CACHE_DIR", "inductor"),
                   ("TORCH_EXTENSIONS_DIR", "extensions")):
        p = os.path.join(root, d)
        os.makedirs(p, exist_ok=True)
        os.chmod(p, 0o1777)
        env[var] = p
    os.chmod(root, 0o755)
    os.utime(root)  # last use, for remove_unused_caches
    return env


def launch_candidate(worker, job, ctx, fds):
    """Has the zygote fork the candidate with ctx and fds (closed here afterwards); child.main(ctx, fds)
    gets the same names mapped to its own fd numbers. The candidate never is a fork of this process."""
    prec = job.req.get("fp32_precision", worker.fp32_precision)
    if prec not in FP32_PRECISIONS:
        for fd in fds.values():
            os.close(fd)
        os.close(job.fd)
        os.close(job.ctl)
        shutil.rmtree(job.scratch, ignore_errors=True)
        return worker.verdict(job, "UNVERIFIABLE", "compile", ["BAD_REQUEST"],
                              f"verify request: field fp32_precision must be one of {list(FP32_PRECISIONS)}, "
                              f"not {prec!r}")
    job.fp32_precision = prec
    ctx = dict(ctx)
    ctx["env"] = {k: v for k, v in ctx["env"].items() if k != "TRITON_F32_DEFAULT"}
    if prec == "ieee" and worker.device != "cpu":
        ctx["env"]["TRITON_F32_DEFAULT"] = "ieee"
    ctx["hide_roots"] = [worker.cache_dir, worker.scratch_root]
    sr, sw = os.pipe2(os.O_CLOEXEC)
    job.status_fd, job.status_buf, job.sandbox, job.wait_status, job.status_error = sr, b"", None, None, None
    job.pid = None
    job.mark("spawn")
    try:
        worker.zygote.spawn(ctx, fds, sw)
    except (OSError, RuntimeError) as e:
        job.status_error = f"the zygote could not start the candidate: {e}"
        log(f"job {job.job}: {job.status_error}")
    finally:
        os.close(sw)
        for fd in fds.values():
            os.close(fd)
    read_status(job, until_pid=True)
    job.deadline = time.monotonic() + job.timeouts["compile"]
    worker.stage_clock(job)
    worker.hold(job)
    worker.running[job.fd] = job
    worker.sel.register(job.fd, selectors.EVENT_READ, job)


def read_status(job, until_pid=False):
    """Reads the job's status pipe (JSON lines from the zygote's intermediate and the sandbox) until the
    candidate's pid is known (until_pid) or the pipe's end (the candidate and its intermediate gone)."""
    import select
    while not (until_pid and (job.pid or job.status_error)):
        if not select.select([job.status_fd], [], [], 60)[0]:
            job.status_error = job.status_error or "no word from the zygote in 60 s"
            return
        try:
            data = os.read(job.status_fd, 65536)
        except OSError:
            data = b""
        if not data:
            return
        job.status_buf += data
        while b"\n" in job.status_buf:
            line, job.status_buf = job.status_buf.split(b"\n", 1)
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if "pid" in rec and not job.pid:
                job.pid = int(rec["pid"])
            elif "status" in rec:
                job.wait_status = int(rec["status"])
            elif "applied" in rec:
                job.sandbox = rec["applied"]
            elif "error" in rec:
                job.status_error = str(rec["error"])


def reap(job):
    """The candidate's wait status once it is gone (killed first by kill()), from the zygote's
    intermediate. A sandbox that could not be set up is the machine's failure, not the sample's: nothing of
    the sample ran, and the job is retried like any other failure of the harness (job.infra), then
    UNVERIFIABLE SANDBOX_UNAVAILABLE."""
    if getattr(job, "status_fd", None) is None:  # a trusted fork of this process (the native path)
        _, st = os.waitpid(job.pid, 0)
        return st
    read_status(job)
    os.close(job.status_fd)
    job.status_fd = None
    if job.sandbox is None and job.failure is None and not job.cancelled and not job.infra:
        err = job.error  # the candidate's own report of what failed while it set the sandbox up
        why = job.status_error or (f"{err['code']}: {err['message'][:300]}" if err else "the sandbox was not set up")
        job.infra = f"the candidate's sandbox could not be set up ({why}); nothing of the sample ran"
        job.infra_code = "SANDBOX_UNAVAILABLE"
        log(f"job {job.job}: {job.infra}")
    return job.wait_status if job.wait_status is not None else signal.SIGKILL


def fork_native(worker, job, task):
    """A raw CUDA answer: a trusted child materialises the task's inputs and expected outputs (once per
    task, shared on disk), then becomes `sieve-cli cuda-verify` (exec) in a narrowed process; the
    verdict comes back as one JSON object on its stdout (native.py, gpu/cuda/nativeverify.h)."""
    req = job.req
    cli = os.environ.get("SIEVE_CLI") or shutil.which("sieve-cli")
    if not cli:
        return worker.verdict(job, "UNVERIFIABLE", "compile", ["NATIVE_UNAVAILABLE"],
                              "raw CUDA answers are verified by sieve-cli cuda-verify, and no sieve-cli was "
                              "found (set SIEVE_CLI)")
    summary = task["summary"]
    timeouts = {"compile": 120, "correct": 120, "timing": 120, **(req.get("timeouts") or {})}
    timing = bool(req.get("timing")) and worker.device != "cpu"
    scratch = os.path.join(worker.scratch_root, f"native-{job.job}-{os.getpid()}-{int(time.time() * 1000) % 10**8}")
    os.makedirs(scratch, mode=0o700)
    logp = os.path.join(scratch, "native.log")
    logfd = os.open(logp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    ctx = {"cli": cli, "scratch": scratch, "cache_dir": worker.cache_dir, "task_path": task["path"],
           "task_key": task["req"]["task_key"], "sig": task["sig"] + os.path.basename(worker.session_dir),
           "shapes": summary["shapes"], "ref_dir": worker.session_dir, "device": worker.device,
           "input_sets": summary.get("input_sets"), "shape_seeds": summary.get("shape_seeds"),
           "set_atols": summary.get("set_atols"),
           "code_hash": summary["code_hash"],
           "seeds": summary["secret_seeds"], "style": task["req"].get("init_inputs_style", "kernelbench"),
           "code": req.get("code", ""), "gpu": worker.device != "cpu",
           "device_index": int(worker.device.split(":")[1]) if ":" in worker.device else 0,
           "atol": summary["atol"], "rtol": summary["rtol"], "launch_timeout": timeouts["correct"],
           "timing_runs": int((req.get("timing_limits") or {}).get("max_runs", 100)) if timing else 0,
           "lock_path": worker.lock_path,
           "cpu_seconds": int(sum(timeouts.values()) + 30)}
    if timing:
        worker.ensure_ref_timing(task)
    r, w = os.pipe()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:
        try:
            sandbox.bind_to_parent(parent)
            os.setpgid(0, 0)
            os.close(r)
            os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
            os.dup2(w, 1)
            os.dup2(logfd, 2)
            native.exec_verify(ctx)
        except BaseException as e:
            os.write(2, f"native verification could not start: {type(e).__name__}: {e}\n".encode())
        finally:
            os._exit(4)
    try:
        os.setpgid(pid, pid)
    except OSError:
        pass
    os.close(w)
    os.close(logfd)
    os.set_blocking(r, False)
    job.native = True
    job.gpu_bytes, job.granted = job.gpu_full, True  # it runs its calls at once: no grant to wait for
    worker.hold(job)
    job.expected = sum(len(x) for x in shape_seeds(summary))
    job.timeouts = timeouts
    job.pid, job.fd, job.ctl, job.scratch, job.log_path = pid, r, None, scratch, logp
    # cuda-verify waits for the GPU lock itself (the 'queue' stage of a Python child): its budget too
    job.deadline = time.monotonic() + timeouts["compile"] + timeouts["correct"] + \
        (timeouts["timing"] + float(timeouts.get("queue", 0)) if timing else 0)
    worker.running[r] = job
    worker.sel.register(r, selectors.EVENT_READ, job)


class Zygote:
    """python -m sieve_worker.sandbox.zygote, the process every candidate is forked from, and its socket."""

    def __init__(self, device, cache_dir, wall_so=None):
        self.device, self.cache_dir = device, cache_dir
        self.wall_so = wall_so  # the runtime wall the worker built (wall.build), loaded by the zygote
        self.proc = self.sock = self.info = self.t0 = None

    def start(self, wait=True):
        """A fresh interpreter (python -m sieve_worker.sandbox.zygote) with a scrubbed environment and no fd of this
        process but its socket; it imports torch and triton once and forks every candidate."""
        from ..sandbox import taskbox
        if self.proc is not None:
            self.stop()
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        env = taskbox.scrubbed_env({"PYTHONPATH": WORKER_DIR, "PYTHONUNBUFFERED": "1", **sandbox.parent_env(),
                                    "TRITON_CACHE_DIR": os.path.join(self.cache_dir, "zygote", "triton")})
        if self.wall_so:
            env["SIEVE_WALL_SO"] = self.wall_so
        if self.device == "cpu":
            env["TRITON_INTERPRET"] = "1"  # read when triton is imported
        elif "TRITON_LIBCUDA_PATH" not in env:
            # Triton finds libcuda with `/sbin/ldconfig -p`, a shell script on some systems: the candidate may
            # not exec a shell, so the (trusted) worker looks it up once, as Triton would
            try:
                out = subprocess.run(["/sbin/ldconfig", "-p"], capture_output=True, text=True, timeout=30).stdout
                dirs = [os.path.dirname(line.split()[-1]) for line in out.splitlines() if "libcuda.so.1" in line]
                if dirs:
                    env["TRITON_LIBCUDA_PATH"] = dirs[0]
            except (OSError, subprocess.SubprocessError) as e:
                log(f"ldconfig -p: {e}")
        t0 = time.monotonic()
        proc = subprocess.Popen([sys.executable, "-s", "-m", "sieve_worker.sandbox.zygote", str(theirs.fileno()),
                                 "--device", self.device], env=env, pass_fds=(theirs.fileno(),), close_fds=True,
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, cwd="/",
                                start_new_session=True)
        theirs.close()
        self.proc, self.sock, self.info, self.t0 = proc, mine, None, t0
        return self.ready() if wait else None

    def ready(self):
        if self.info is not None:
            return self.info
        self.sock.settimeout(300)
        try:
            ready = json.loads(self.sock.recv(1 << 20) or b"{}")
        except (OSError, ValueError) as e:
            ready = {"error": str(e)}
        self.sock.settimeout(None)
        if ready.get("op") != "ready":
            self.proc.kill()
            self.proc.wait()
            self.proc = None
            raise RuntimeError(f"the zygote did not start: {ready}")
        ready["start_s"] = round(time.monotonic() - self.t0, 3)
        self.info = ready
        return ready

    def stop(self):
        if self.proc is None:
            return
        try:
            self.sock.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def spawn(self, ctx, fds, status_w):
        """Sends one spawn request with the fds attached (SCM_RIGHTS); restarts a dead zygote once."""
        names = list(fds) + ["status"]
        msg = json.dumps({"op": "spawn", "ctx": ctx, "names": names}).encode()
        for attempt in (0, 1):
            if self.proc is None or self.proc.poll() is not None:
                log("the zygote is not running; starting it")
                self.start()
            self.ready()
            try:
                socket.send_fds(self.sock, [msg], [fds[n] for n in names[:-1]] + [status_w])
                return
            except OSError as e:
                if attempt:
                    raise
                log(f"spawn request failed ({e}); restarting the zygote")
                self.proc = None
