"""The warm worker: speaks JSON lines with the engine, computes references in trusted forked children,
runs static checks, forks one sandboxed child per candidate, compares its outputs and decides verdicts.

Single-threaded on purpose: an event loop over stdin and the children's pipes (forking from a process
with live threads invites deadlocks in the child). The worker never initialises CUDA (children do) and
never runs torch compute itself (references run in a forked child, so no OpenMP pool exists at fork).
"""
import collections
import hashlib
import json
import os
import platform
import selectors
import shutil
import signal
import subprocess
import sys
import time

from . import WORKER_VERSION, compare, frames, native, static, taskref

REF_TIMING_TIMEOUT = 900
MAX_INFRA_RETRIES = 3

MAX_CHILD_BYTES = 1 << 31
REF_MEMORY = 2 << 30
PEAK_BANDWIDTH = {"H200": 4.8e12, "H100": 3.35e12, "A100": 2.0e12, "L40S": 0.864e12, "A10": 0.6e12}


def write_all(fd, data):
    while data:
        data = data[os.write(fd, data):]


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


def log(*a):
    print("[sieve_worker]", *a, file=sys.stderr, flush=True)


def status_of(code):
    return {"COMPILE_ERROR": "FAIL_COMPILE", "RUNTIME_ERROR": "FAIL_RUNTIME", "OUT_OF_BOUNDS": "FAIL_RUNTIME",
            "ILLEGAL_ADDRESS": "FAIL_RUNTIME", "MEMORY_LIMIT": "FAIL_SANDBOX", "SANDBOX": "FAIL_SANDBOX"}.get(code, "FAIL_RUNTIME")


class Job:
    def __init__(self, req):
        self.req = req
        self.job = req.get("job")
        self.started = time.monotonic()
        self.pid = None
        self.fd = None
        self.ctl = None
        self.reader = frames.FrameReader(MAX_CHILD_BYTES)
        self.stage = "compile"
        self.deadline = None
        self.pending = None  # (header, [blobs]) waiting for binary frames
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
        self.infra = None  # the child could not start CUDA before running anything of the sample
        self.retries = 0
        self.native = False  # a raw CUDA answer: the child is `sieve-cli cuda-verify`, its stdout one JSON
        self.raw = b""


class TrustedChild:
    """A trusted child forked from the worker (references, reference timing): its one JSON result comes
    on a pipe; on_done(result or None, timed_out) runs in the loop when it ends."""

    def __init__(self, pid, fd, deadline, on_done):
        self.pid, self.fd, self.deadline, self.on_done = pid, fd, deadline, on_done
        self.data = b""


class RefTimer:
    """The reference timing of one task (see reftiming.py), and the verdicts waiting for it."""

    def __init__(self):
        self.result = None
        self.parked = []  # (job, exit status, log) of timed candidates whose verdict needs the reference


class Worker:
    def __init__(self, device, parallel):
        self.device = device
        self.parallel = max(1, parallel)
        self.cache_dir = None
        self.scratch_root = None
        self.tasks = {}
        self.refs = collections.OrderedDict()
        self.ref_bytes = 0
        self.queue = []
        self.running = {}  # fd -> Job
        self.reftimers = {}  # (task_key, sig) -> RefTimer
        self.pending_refs = set()  # task keys whose references are being computed
        self.trusted = {}  # fd -> TrustedChild
        self.sel = selectors.DefaultSelector()
        self.inbuf = b""
        self.quit = False
        self.env = None
        self.lock_path = None

    # ---- engine I/O ------------------------------------------------------------------------------------
    def emit(self, obj):
        sys.stdout.write(json.dumps(obj) + "\n")
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
            elif op == "verify":
                self.queue.append(Job(msg))
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

    def hello(self, msg):
        self.cache_dir = os.path.abspath(msg.get("cache_dir") or os.path.expanduser("~/.cache/sieve/verifier"))
        self.scratch_root = os.path.abspath(msg.get("scratch_root") or os.path.join(self.cache_dir, "scratch"))
        for d in (self.cache_dir, os.path.join(self.cache_dir, "tasks"), os.path.join(self.cache_dir, "refs"),
                  self.scratch_root):
            os.makedirs(d, exist_ok=True)
        os.chmod(os.path.join(self.cache_dir, "tasks"), 0o755)
        os.chmod(self.cache_dir, 0o755)
        os.chmod(self.scratch_root, 0o755)
        # shared compiler caches, written through by children running as nobody: world-writable, sticky
        for d in ("triton", "inductor", "extensions"):
            p = os.path.join(self.cache_dir, d)
            os.makedirs(p, exist_ok=True)
            os.chmod(p, 0o1777)
        # Keyed by host and physical GPU: with CUDA_VISIBLE_DEVICES (Slurm) "cuda:0" of two processes may be
        # two GPUs, and a cache dir on a shared home is seen by every node.
        phys = self.physical_gpu().replace("/", "_").replace(":", "")
        self.lock_path = os.path.join(self.cache_dir, f"gpu-{platform.node() or 'host'}-{phys}.lock")
        open(self.lock_path, "a").close()
        os.chmod(self.lock_path, 0o666)
        self.env = self.environment()
        self.emit({"op": "hello", "worker_version": WORKER_VERSION, "env": self.env})

    def physical_gpu(self):
        """The GPU nvidia-smi knows as this worker's device: CUDA_VISIBLE_DEVICES renumbers from 0."""
        if self.device == "cpu":
            return "cpu"
        idx = self.device.split(":")[1] if ":" in self.device else "0"
        visible = [v.strip() for v in os.environ.get("CUDA_VISIBLE_DEVICES", "").split(",") if v.strip()]
        if visible and idx.isdigit() and int(idx) < len(visible):
            return visible[int(idx)]
        return idx

    def environment(self):
        import numpy
        import torch
        import triton
        env = {"python": platform.python_version(), "torch": torch.__version__, "triton": triton.__version__,
               "numpy": numpy.__version__, "device": self.device, "interpreted": self.device == "cpu"}
        if self.device != "cpu":
            idx = self.physical_gpu()
            env["physical_gpu"] = idx
            try:
                out = subprocess.run(["nvidia-smi", "-i", idx, "--query-gpu=name,driver_version,memory.total",
                                      "--format=csv,noheader"], capture_output=True, text=True, timeout=30).stdout
                name, driver, mem = [x.strip() for x in out.strip().split(",")]
                env.update({"gpu": name, "driver": driver, "gpu_memory": mem})
            except Exception as e:
                env["gpu_error"] = str(e)
            env["cuda"] = torch.version.cuda
            env.update(self.probe_device())
        return env

    def probe_device(self):
        """L2 size and capability from a short-lived child: the worker itself must not initialise CUDA."""
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            try:
                import torch
                p = torch.cuda.get_device_properties(torch.device(self.device))
                info = {"l2_bytes": int(getattr(p, "L2_cache_size", 0)), "gpu_total_bytes": int(p.total_memory),
                        "capability": f"{p.major}.{p.minor}"}
            except Exception as e:
                info = {"device_error": str(e)}
            os.write(w, json.dumps(info).encode())
            os._exit(0)
        os.close(w)
        data = b""
        while True:
            chunk = os.read(r, 65536)
            if not chunk:
                break
            data += chunk
        os.close(r)
        os.waitpid(pid, 0)
        try:
            return json.loads(data)
        except ValueError:
            return {"device_error": "device probe failed"}

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
        if self.device != "cpu":
            msg = dict(msg)
            msg.setdefault("max_task_bytes", 8 << 30)
        else:
            msg = dict(msg)
            msg.setdefault("max_task_bytes", 1 << 30)
            msg.setdefault("cpu_max_elements", 1 << 16)
        if key in self.pending_refs:
            return  # its reference child is running: task_ready follows when it is done
        self.start_reference(key, sig, msg, path)

    def fork_trusted(self, work, timeout, on_done):
        """Runs work() (returns a JSON-able dict) in a forked trusted child while the loop goes on."""
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                os.setpgid(0, 0)
                os.close(r)
                os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # task prints must not reach the protocol
                from . import sandbox
                sandbox.set_pdeathsig()  # never outlive a worker that was killed
                try:
                    res = work()
                except BaseException as e:
                    res = {"error": f"{type(e).__name__}: {e}"[:500]}
                write_all(w, json.dumps(res).encode())
            finally:
                os._exit(0)
        os.close(w)
        os.set_blocking(r, False)
        child = TrustedChild(pid, r, time.monotonic() + timeout, on_done)
        self.trusted[r] = child
        self.sel.register(r, selectors.EVENT_READ, child)

    def read_trusted(self, child, timed_out=False):
        if not timed_out:
            data, eof = drain(child.fd)
            child.data += data
            if not eof:
                return
        self.sel.unregister(child.fd)
        del self.trusted[child.fd]
        os.close(child.fd)
        try:
            os.killpg(child.pid, signal.SIGKILL)
        except OSError:
            pass
        os.waitpid(child.pid, 0)
        result = None
        if not timed_out:
            try:
                result = json.loads(child.data)
            except ValueError:
                pass
        child.on_done(result if isinstance(result, dict) else None, timed_out)

    def start_reference(self, key, sig, msg, path):
        """References run in a trusted child while the loop goes on serving other tasks' samples; a lock
        per task in the cache dir makes workers of other GPUs wait for one computation and then read its
        cached outputs instead of computing them again."""
        lock = os.path.join(self.cache_dir, "refs", hashlib.sha256(key.encode()).hexdigest()[:24] + ".lock")

        def work():
            import fcntl
            fcntl.flock(os.open(lock, os.O_RDWR | os.O_CREAT, 0o644), fcntl.LOCK_EX)
            try:
                return taskref.compute_references(msg, path, self.cache_dir)
            except BaseException as e:
                return {"ok": False, "shapes": [], "dropped_shapes": [],
                        "hygiene": [{"code": "REF_FAILED", "message": f"{type(e).__name__}: {e}"}]}

        def done(summary, timed_out):
            self.pending_refs.discard(key)
            if summary is None or "error" in summary:
                summary = {"ok": False, "shapes": [], "dropped_shapes": [],
                           "hygiene": [{"code": "REF_FAILED", "message": "the reference crashed or timed out"}]}
            ready = {"op": "task_ready", "task_key": key, "shapes": summary.get("shapes", []),
                     "dropped_shapes": summary.get("dropped_shapes", []), "hygiene": summary.get("hygiene", []),
                     "ok": bool(summary.get("ok"))}
            self.tasks[key] = {"sig": sig, "ready": ready, "req": msg, "path": path, "summary": summary}
            self.emit(ready)

        self.pending_refs.add(key)
        self.fork_trusted(work, float(msg.get("reference_timeout", 600)), done)

    def reference(self, task, si, seed):
        """Reference outputs from memory, else from the disk cache; memory holds at most REF_MEMORY bytes."""
        key = (task["req"]["task_key"], task["sig"], si, seed)
        hit = self.refs.pop(key, None)
        if hit is None:
            s = task["summary"]
            p = taskref.cache_path(self.cache_dir, task["req"]["task_key"], s["code_hash"], s["shapes"][si], seed)
            hit = taskref.load_ref(p)
            self.ref_bytes += sum(a.nbytes for _, a in hit)
        self.refs[key] = hit  # most recently used last
        while self.ref_bytes > REF_MEMORY and len(self.refs) > 1:
            _, old = self.refs.popitem(last=False)
            self.ref_bytes -= sum(a.nbytes for _, a in old)
        return hit

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
        v.update(extra)
        self.emit(v)

    def start_job(self, job):
        job.started = time.monotonic()
        req = job.req
        task = self.tasks.get(req.get("task_key"))
        if task is None:
            self.emit({"op": "error", "message": f"verify job {job.job}: unknown task_key {req.get('task_key')!r}"})
            return
        backend = req.get("backend", "triton")
        code = req.get("code", "")
        if backend == "nki" or backend not in ("triton", "cuda", "torch"):
            return self.verdict(job, "UNVERIFIABLE", "static", ["BACKEND_UNSUPPORTED"],
                                f"the {backend} backend cannot be verified here")
        raw_cuda = backend == "cuda" and native.is_raw_cuda(code)
        if not raw_cuda and not req.get("skip_static"):
            findings = static.check(code, backend)
            if findings:
                first = findings[0]
                return self.verdict(job, "FAIL_STATIC", "static", [f.code for f in findings],
                                    f"line {first.line}: {first.message}",
                                    log="\n".join(f"line {f.line}: {f.code}: {f.message}" for f in findings),
                                    findings=[f.to_json() for f in findings])
        if not task["ready"]["ok"]:
            h = task["ready"]["hygiene"]
            return self.verdict(job, "UNVERIFIABLE", "correct", [x["code"] for x in h],
                                "the task itself is broken: " + "; ".join(x["message"] for x in h))
        tdtype = task["req"].get("dtype", "fp32")
        if self.device == "cpu" and tdtype == "bf16":
            return self.verdict(job, "UNVERIFIABLE", "compile", ["BF16_ON_INTERPRETER"],
                                "bf16 cannot run on the CPU interpreter")
        if raw_cuda:
            return self.fork_native(job, task)
        if self.device == "cpu" and backend == "cuda":
            return self.verdict(job, "UNVERIFIABLE", "compile", ["BACKEND_UNSUPPORTED"],
                                "CUDA answers need a GPU")
        self.fork_child(job, task)

    def fork_child(self, job, task):
        req = job.req
        scratch = os.path.join(self.scratch_root, f"job-{job.job}-{os.getpid()}-{int(time.time() * 1000) % 10**8}")
        os.makedirs(scratch, mode=0o700)
        name = f"sieve_candidate_{job.job}"
        cand = os.path.join(scratch, f"{name}.py")
        with open(cand, "w") as f:
            f.write(req.get("code", ""))
        logp = os.path.join(scratch, "child.log")
        logfd = os.open(logp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        if os.geteuid() == 0:
            for p in (scratch, cand, logp):
                os.chown(p, 65534, 65534)
        summary = task["summary"]
        seeds = summary["seeds"]
        timeouts = {"compile": 120, "correct": 120, "timing": 120, **(req.get("timeouts") or {})}
        limits = {"memory_mb": 16384, "processes": 64, **(req.get("limits") or {})}
        env = {"TRITON_CACHE_DIR": os.path.join(self.cache_dir, "triton"),
               "TORCHINDUCTOR_CACHE_DIR": os.path.join(self.cache_dir, "inductor"),
               "TORCH_EXTENSIONS_DIR": os.path.join(self.cache_dir, "extensions"),
               "TORCHINDUCTOR_COMPILE_THREADS": "1"}
        if self.device == "cpu":
            env["TRITON_INTERPRET"] = "1"
        else:
            env["TRITON_F32_DEFAULT"] = "ieee"
        ctx = {"scratch": scratch, "candidate_path": cand, "candidate_module": name, "task_path": task["path"],
               "style": task["req"].get("init_inputs_style", "kernelbench"), "shapes": summary["shapes"],
               "seeds": seeds, "device": self.device if self.device != "cpu" else "cpu",
               "timing": bool(req.get("timing")) and self.device != "cpu", "limits": limits,
               "backend": req.get("backend", "triton"),
               "allowed_dirs": [scratch, env["TRITON_CACHE_DIR"], env["TORCHINDUCTOR_CACHE_DIR"],
                                env["TORCH_EXTENSIONS_DIR"]],
               "env": env, "cpu_seconds": int(sum(timeouts.values()) + 30),
               "nproc": int(limits["processes"]) * self.parallel + 64,
               "threads": 1 if self.device == "cpu" else 4, "l2_bytes": (self.env or {}).get("l2_bytes"),
               "timing_limits": dict(req.get("timing_limits") or {})}
        if ctx["timing"]:
            self.ensure_ref_timing(task)
        job.expected = len(summary["shapes"]) * len(seeds)
        job.expected_keys = {(si, sd) for si in range(len(summary["shapes"])) for sd in seeds}
        job.timeouts = timeouts
        r, w = os.pipe()
        cr, cw = os.pipe()
        lock_fd = os.open(self.lock_path, os.O_RDWR)
        pid = os.fork()
        if pid == 0:
            try:
                os.setpgid(0, 0)
                os.close(r)
                os.close(cw)
                devnull = os.open(os.devnull, os.O_RDONLY)
                os.dup2(devnull, 0)
                os.dup2(logfd, 1)
                os.dup2(logfd, 2)
                sys.stdout = open(1, "w", buffering=1, closefd=False)
                sys.stderr = open(2, "w", buffering=1, closefd=False)
                from . import child
                child.main(w, cr, lock_fd, ctx)
            finally:
                os._exit(4)
        try:
            os.setpgid(pid, pid)
        except OSError:
            pass
        os.close(w)
        os.close(cr)
        os.close(logfd)
        os.close(lock_fd)
        os.set_blocking(r, False)
        job.pid, job.fd, job.ctl, job.scratch, job.log_path = pid, r, cw, scratch, logp
        job.deadline = time.monotonic() + timeouts["compile"]
        self.running[r] = job
        self.sel.register(r, selectors.EVENT_READ, job)

    def fork_native(self, job, task):
        """A raw CUDA answer: a trusted child materialises the task's inputs and expected outputs (once per
        task, shared on disk), then becomes `sieve-cli cuda-verify` (exec) in a narrowed process; the
        verdict comes back as one JSON object on its stdout (native.py, gpu/nativeverify.h)."""
        req = job.req
        cli = os.environ.get("SIEVE_CLI") or shutil.which("sieve-cli")
        if not cli:
            return self.verdict(job, "UNVERIFIABLE", "compile", ["NATIVE_UNAVAILABLE"],
                                "raw CUDA answers are verified by sieve-cli cuda-verify, and no sieve-cli was found "
                                "(set SIEVE_CLI)")
        summary = task["summary"]
        timeouts = {"compile": 120, "correct": 120, "timing": 120, **(req.get("timeouts") or {})}
        timing = bool(req.get("timing")) and self.device != "cpu"
        scratch = os.path.join(self.scratch_root, f"native-{job.job}-{os.getpid()}-{int(time.time() * 1000) % 10**8}")
        os.makedirs(scratch, mode=0o700)
        logp = os.path.join(scratch, "native.log")
        logfd = os.open(logp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        ctx = {"cli": cli, "scratch": scratch, "cache_dir": self.cache_dir, "task_path": task["path"],
               "task_key": task["req"]["task_key"], "sig": task["sig"], "shapes": summary["shapes"],
               "code_hash": summary["code_hash"],
               "seeds": summary["seeds"], "style": task["req"].get("init_inputs_style", "kernelbench"),
               "code": req.get("code", ""), "gpu": self.device != "cpu",
               "device_index": int(self.device.split(":")[1]) if ":" in self.device else 0,
               "atol": summary["atol"], "rtol": summary["rtol"], "launch_timeout": timeouts["correct"],
               "timing_runs": int((req.get("timing_limits") or {}).get("max_runs", 100)) if timing else 0, "lock_path": self.lock_path,
               "cpu_seconds": int(sum(timeouts.values()) + 30)}
        if timing:
            self.ensure_ref_timing(task)
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
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
        job.expected = len(summary["shapes"]) * len(summary["seeds"])
        job.timeouts = timeouts
        job.pid, job.fd, job.ctl, job.scratch, job.log_path = pid, r, None, scratch, logp
        # cuda-verify waits for the GPU lock itself (the 'queue' stage of a Python child): its budget too
        job.deadline = time.monotonic() + timeouts["compile"] + timeouts["correct"] + \
            (timeouts["timing"] + float(timeouts.get("queue", 0)) if timing else 0)
        self.running[r] = job
        self.sel.register(r, selectors.EVENT_READ, job)

    def native_result(self, job, st, logall):
        """Turns cuda-verify's JSON into the job's state, then decides like any other sample."""
        try:
            res = json.loads(job.raw.decode("utf-8", "replace").strip().splitlines()[-1])
            if not isinstance(res, dict) or "status" not in res:
                raise ValueError("no status")
        except (ValueError, IndexError):
            if job.timed_out or job.cancelled:
                return self.conclude(job, st, logall)
            why = (f"signal {signal.Signals(os.WTERMSIG(st)).name}" if os.WIFSIGNALED(st)
                   else f"exit status {os.WEXITSTATUS(st)}")
            return self.verdict(job, "CRASH", job.stage, ["SIGNAL"],
                                f"native verification ended ({why}) without a result", log=logall)
        job.checks = res.get("checks") or []
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

    def ensure_ref_timing(self, task):
        key = (task["req"]["task_key"], task["sig"])
        if key in self.reftimers:
            return
        rt = RefTimer()
        self.reftimers[key] = rt
        summary = task["summary"]
        ctx = {"task_path": task["path"], "shape": summary["shapes"][0], "seed": summary["seeds"][0],
               "style": task["req"].get("init_inputs_style", "kernelbench"), "device": self.device,
               "l2_bytes": (self.env or {}).get("l2_bytes")}

        def work():
            os.environ.update({"TORCHINDUCTOR_CACHE_DIR": os.path.join(self.cache_dir, "inductor"),
                               "TRITON_CACHE_DIR": os.path.join(self.cache_dir, "triton"),
                               "TORCHINDUCTOR_COMPILE_THREADS": "1"})
            from . import reftiming
            return reftiming.run(ctx, os.open(self.lock_path, os.O_RDWR))

        def done(result, timed_out):
            if result is None:
                result = {"error": f"timed out after {REF_TIMING_TIMEOUT} s" if timed_out
                          else "the reference timing child died"}
            rt.result = result
            parked, rt.parked = rt.parked, []
            for job, st, logall in parked:
                self.conclude(job, st, logall)

        self.fork_trusted(work, REF_TIMING_TIMEOUT, done)

    def kill(self, job):
        try:
            os.killpg(job.pid, signal.SIGKILL)
        except OSError:
            pass
        try:
            os.kill(job.pid, signal.SIGKILL)
        except OSError:
            pass

    def fail(self, job, status, stage, reasons, message):
        if job.failure is None:
            job.failure = (status, stage, reasons, message)
        self.kill(job)

    def cancel(self, jid):
        for job in list(self.running.values()):
            if job.job == jid:
                job.cancelled = True
                self.kill(job)
                return
        for job in list(self.queue):
            if job.job == jid:
                self.queue.remove(job)
                job.cancelled = True
                self.verdict(job, "CANCELLED", "static", [], "cancelled before it started")
                return

    def on_frame(self, job, kind, payload):
        if job.pending is not None:
            if kind != b"B":
                return self.fail(job, "CRASH", job.stage, ["SIGNAL"], "malformed result stream from the candidate")
            job.pending[1].append(payload)
            if len(job.pending[1]) == job.pending[2]:
                header, blobs, _ = job.pending
                job.pending = None
                self.on_arrays(job, header, blobs)
            return
        if kind != b"J":
            return self.fail(job, "CRASH", job.stage, ["SIGNAL"], "malformed result stream from the candidate")
        try:
            msg = json.loads(payload)
            t = msg["t"]
        except Exception:
            return self.fail(job, "CRASH", job.stage, ["SIGNAL"], "malformed result stream from the candidate")
        if t == "stage":
            job.stage = msg["stage"]
            key = {"proof": "correct"}.get(job.stage, job.stage)
            job.deadline = time.monotonic() + float(job.timeouts.get(key, 3600 if key == "queue" else 120))
        elif t == "violation":
            job.violations.append(msg)
            self.fail(job, "FAIL_SANDBOX", job.stage, [msg["code"]], f"the sample tried something the sandbox forbids: "
                      f"{msg['detail']}")
        elif t in ("output", "probe"):
            n = len(msg.get("meta") or []) if t == "output" else (2 * msg.get("n", 0) if "error" not in msg and not msg.get("cuda") else 0)
            if t == "output" and msg.get("meta") is None:
                return self.on_arrays(job, msg, [])
            if n == 0:
                return self.on_arrays(job, msg, [])
            job.pending = (msg, [], n)
        elif t == "error":
            job.error = msg
        elif t == "infra":
            job.infra = msg.get("message", "")
        elif t == "timing_request":
            go = job.failure is None and job.seen == job.expected_keys and job.probe == "ok"
            try:
                os.write(job.ctl, b"G" if go else b"S")
            except OSError:
                pass
        elif t == "timings":
            job.timings = msg.get("timings")
            job.bytes_moved = msg.get("bytes_moved")
        elif t == "done":
            job.done = msg
        elif t in ("note",):
            job.notes.append(msg.get("message", ""))
        elif t == "state_dict":
            if msg.get("missing") or msg.get("unexpected"):
                job.notes.append(f"state_dict copy: missing {msg.get('missing')}, unexpected {msg.get('unexpected')}")
        elif t == "sandbox":
            job.notes.append(f"sandbox: {msg.get('applied')}")
        elif t == "profile" and msg.get("error"):
            job.notes.append(f"profiler: {msg['error']}")

    def on_arrays(self, job, header, blobs):
        task = self.tasks[job.req["task_key"]]
        atol, rtol = task["summary"]["atol"], task["summary"]["rtol"]
        if header["t"] == "probe":
            job.share = header.get("share")
            if header.get("cuda"):
                if job.share == 0:
                    job.probe = "sham"
                    return self.fail(job, "FAIL_SHAM", "proof", ["OUTPUT_NOT_FROM_KERNEL"],
                                     "the sample's CUDA kernels took no GPU time in the forward")
                job.probe = "ok"
                job.notes.append("proof: CUDA extension kernels counted in the profiler (no no-op probe for CUDA)")
                return
            if "error" in header:
                job.probe = "ok"
                job.notes.append(f"proof probe: without its kernels the forward fails ({header['error']})")
                return
            n = header["n"]
            arrs = [(m["dtype"], compare.decode(m, b)) for m, b in zip(header["meta"], blobs)]
            if compare.same(arrs[:n], arrs[n:], atol, rtol):
                job.probe = "sham"
                self.fail(job, "FAIL_SHAM", "proof", ["OUTPUT_NOT_FROM_KERNEL"],
                          "the output is the same when the sample's kernels are turned into no-ops: "
                          "they did not produce it")
            else:
                job.probe = "ok"
            return
        si, seed = header["si"], header["seed"]
        if (si, seed) not in job.expected_keys or (si, seed) in job.seen:
            return self.fail(job, "CRASH", job.stage, ["SIGNAL"], f"unexpected output for shape {si} seed {seed}")
        job.seen.add((si, seed))
        job.launches += int(header.get("launches", 0))
        entry = {"shape_index": si, "shape": task["summary"]["shapes"][si], "seed": seed}
        if header.get("meta") is None:
            entry.update({"ok": False, "note": f"outputs of type {header.get('types')} are not plain tensors"})
            job.checks.append(entry)
            return self.fail(job, "FAIL_SHAM", "correct", ["OUTPUT_NOT_FROM_KERNEL"],
                             f"forward returned {header.get('types')} instead of plain tensors (a lazy output)")
        cand = [(m["dtype"], compare.decode(m, b)) for m, b in zip(header["meta"], blobs)]
        res = compare.compare(self.reference(task, si, seed), cand, atol, rtol)
        entry.update(res)
        job.checks.append(entry)
        if not res["ok"]:
            reasons = []
            if res["mismatches"] or res.get("note"):
                reasons.append("MISMATCH")
            if res["nonfinite_mismatches"]:
                reasons.append("NONFINITE_MISMATCH")
            msg = (f"shape {si} seed {seed}: {res['mismatches']} values outside atol={atol:g} rtol={rtol:g} "
                   f"(max abs {res['max_abs']:.3g}), {res['nonfinite_mismatches']} NaN/inf mismatches")
            if res.get("note"):
                msg = f"shape {si} seed {seed}: {res['note']}"
            return self.fail(job, "FAIL_MISMATCH", "correct", reasons, msg)
        if header.get("mutated"):
            return self.fail(job, "FAIL_MISMATCH", "correct", ["INPUT_MUTATED"],
                             f"shape {si} seed {seed}: the forward changed its inputs")
        if header.get("launches", 0) == 0:
            return self.fail(job, "FAIL_SHAM", "proof", ["KERNEL_NOT_RUN"],
                             f"shape {si} seed {seed}: the outputs match but none of the sample's kernels ran")
        if header.get("overlap") is False:
            job.notes.append(f"shape {si} seed {seed}: an output's memory was not passed to any of the sample's kernels")

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
                self.finish(job)
                return
            job.reader.feed(data)
            if job.reader.overflow:
                self.fail(job, "CRASH", job.stage, ["SIGNAL"], "the candidate sent more data than its outputs")
                self.finish(job)
                return
            for kind, payload in job.reader.frames():
                try:
                    self.on_frame(job, kind, payload)
                except Exception as e:  # the stream comes from untrusted code: never let it take the worker down
                    self.fail(job, "CRASH", job.stage, ["SIGNAL"], f"malformed result stream from the candidate: "
                              f"{type(e).__name__}: {e}"[:300])

    def finish(self, job):
        self.sel.unregister(job.fd)
        del self.running[job.fd]
        os.close(job.fd)
        if job.ctl is not None:
            os.close(job.ctl)
        self.kill(job)  # whatever is left of the group
        _, st = os.waitpid(job.pid, 0)
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
        notes = "\n".join(job.notes)
        logall = "\n".join(x for x in (notes, logtext) if x)
        if job.infra and not job.cancelled:
            if job.retries < MAX_INFRA_RETRIES:
                again = Job(job.req)
                again.retries = job.retries + 1
                self.queue.insert(0, again)
                log(f"job {job.job}: the child could not start CUDA ({job.infra}); retry {again.retries}")
                return
            return self.verdict(job, "UNVERIFIABLE", "compile", ["DEVICE_UNAVAILABLE"],
                                f"the GPU could not be used ({job.infra}) in {job.retries + 1} attempts; "
                                "nothing of the sample ran", log=logall)
        if job.native and not job.failure:
            return self.native_result(job, st, logall)
        self.conclude(job, st, logall)

    def conclude(self, job, st, logall):
        if job.cancelled:
            return self.verdict(job, "CANCELLED", job.stage, [], "cancelled", log=logall)
        if job.violations:
            v = job.violations
            return self.verdict(job, "FAIL_SANDBOX", job.stage, [x["code"] for x in v],
                                f"the sample tried something the sandbox forbids: {v[0]['detail']}",
                                log="\n".join(x["detail"] for x in v) + "\n" + logall)
        if job.timed_out:
            return self.verdict(job, "TIMEOUT", job.stage, ["STAGE_TIMEOUT"],
                                f"the {job.stage} stage ran past its {job.timeouts.get(job.stage, 120)} s limit",
                                log=logall)
        if job.failure:
            status, stage, reasons, message = job.failure
            return self.verdict(job, status, stage, reasons, message, log=logall)
        if job.error:
            e = job.error
            code = e["code"]
            if code == "SANDBOX":
                code = "WRITE_OUTSIDE_SCRATCH"
            stage = "compile" if code == "COMPILE_ERROR" else e["stage"]
            return self.verdict(job, status_of(code), stage, [code], e["message"],
                                log=e.get("traceback", "") + "\n" + logall)
        if job.done is None:
            if os.WIFSIGNALED(st):
                sig = os.WTERMSIG(st)
                if sig == signal.SIGXCPU:
                    return self.verdict(job, "TIMEOUT", job.stage, ["STAGE_TIMEOUT"], "CPU time limit reached",
                                        log=logall)
                if sig == signal.SIGXFSZ:
                    return self.verdict(job, "FAIL_SANDBOX", job.stage, ["WRITE_OUTSIDE_SCRATCH"],
                                        "file size limit reached", log=logall)
                return self.verdict(job, "CRASH", job.stage, ["SIGNAL"],
                                    f"the candidate process died from signal {signal.Signals(sig).name} "
                                    f"in the {job.stage} stage", log=logall)
            return self.verdict(job, "CRASH", job.stage, ["SIGNAL"],
                                f"the candidate process exited ({os.WEXITSTATUS(st)}) without a result", log=logall)
        job.launches = max(job.launches, job.done.get("launches", 0))
        if job.seen != job.expected_keys:
            return self.verdict(job, "FAIL_RUNTIME", job.stage, ["RUNTIME_ERROR"],
                                f"only {len(job.checks)} of {job.expected} checks came back", log=logall)
        if job.launches == 0:
            return self.verdict(job, "FAIL_SHAM", "proof", ["KERNEL_NOT_RUN"], "none of the sample's kernels ran",
                                log=logall)
        if job.probe != "ok":
            return self.verdict(job, "FAIL_SHAM", "proof", ["OUTPUT_NOT_FROM_KERNEL"], "the proof probe did not run",
                                log=logall)
        if job.timings:
            # the candidate was timed: its verdict waits for the task's reference timing
            task = self.tasks.get(job.req.get("task_key"))
            rt = self.reftimers.get((task["req"]["task_key"], task["sig"])) if task else None
            if rt is not None and rt.result is None:
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
        extra = {"kernels": job.done.get("kernels", [])}
        flags, speedup = [], None
        if job.timings:
            by = {t["which"]: t for t in job.timings}
            cand = by.get("candidate")
            if cand and by.get("eager"):
                speedup = by["eager"]["median_ms"] / cand["median_ms"] if cand["median_ms"] > 0 else None
                if speedup and speedup > 10:
                    flags.append("SPEEDUP_OVER_10X")
            gpu = (self.env or {}).get("gpu", "")
            peak = next((v for k, v in PEAK_BANDWIDTH.items() if k in gpu), 8e12)
            if cand and job.bytes_moved:
                floor_ms = job.bytes_moved / peak * 1e3
                extra["roofline_floor_ms"] = floor_ms
                if cand["median_ms"] < floor_ms:
                    return self.verdict(job, "FAIL_SHAM", "timing", ["BELOW_ROOFLINE"],
                                        f"{cand['median_ms']:.4f} ms is below the memory roofline floor "
                                        f"{floor_ms:.4f} ms for {job.bytes_moved} bytes", log=logall,
                                        speedup=speedup, flags=flags, **extra)
        n = len(job.checks)
        msg = f"matches the reference on {n} shape/seed checks; {job.launches} launches of its own kernels"
        if self.device == "cpu":
            msg += " (CPU-interpreted, not timed)"
        return self.verdict(job, "PASS", "timing" if job.timings else "proof", [], msg, log=logall,
                            speedup=speedup, flags=flags, **extra)

    def check_deadlines(self):
        now = time.monotonic()
        for child in list(self.trusted.values()):
            if now > child.deadline:
                self.read_trusted(child, timed_out=True)
        for job in list(self.running.values()):
            if job.deadline and now > job.deadline and not job.timed_out and job.failure is None:
                job.timed_out = True
                self.kill(job)

    def serve(self):
        os.set_blocking(0, False)
        self.sel.register(0, selectors.EVENT_READ, None)
        stdin_open = True
        while True:
            while self.queue and len(self.running) < self.parallel and not self.quit:
                self.start_job(self.queue.pop(0))
            if (self.quit or not stdin_open) and not self.running and (self.quit or not self.queue) \
                    and not self.trusted:
                break
            timeout = None
            deadlines = [j.deadline for j in self.running.values()] + [c.deadline for c in self.trusted.values()]
            if deadlines:
                timeout = max(0.0, min(deadlines) - time.monotonic()) + 0.01
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
                elif isinstance(key.data, TrustedChild):
                    self.read_trusted(key.data)
                else:
                    self.read_child(key.data)
            self.check_deadlines()
        for job in list(self.running.values()):
            self.kill(job)
        for child in list(self.trusted.values()):
            try:
                os.killpg(child.pid, signal.SIGKILL)
            except OSError:
                pass
