"""The worker's side of the extension builder (builder.py): requests from candidates, the build queue, the
cache, the import verdict and the answer to the candidate.

A candidate's request comes in parts on its result pipe ({"t": "build", "seq", "part", "parts", "data"});
its stage's clock stops when the request is complete. Builds run in builder processes, at most `parallel`
at once (default: half the cores, at least one; the hello's "build_parallel" may set it), the others
queued in order; a request whose build is already queued or running waits for that one. A build's limit
is what is left of the waiting jobs' stage time when it starts: the time spent queued is never charged.
When the build ends, each waiting job is charged the build's own seconds, its built module is judged by its
imports (elfimports.py: EXTENSION_IMPORT is FAIL_STATIC), copied read-only into the job's extension folder
(bound into its mount namespace), and the candidate is answered on its control pipe.
"""
import json
import os
import selectors
import shutil
import signal
import struct
import time

from . import builder, elfimports
from ..candidate.kill import kill

BUILDER_UID_BASE = 1_400_000_000


def default_parallel():
    return max(1, (os.cpu_count() or 1) // 2)


class Build:
    def __init__(self, key, req):
        self.key, self.req = key, req
        self.waiters = []  # (job, seq)
        self.proc = self.dir = None
        self.started = self.deadline = None
        self.out = b""


def prepare_job(worker, job, ctx):
    """The job's extension folder (read-only in the candidate's mount namespace): built modules are copied
    there for it to import."""
    job.ext_dir = os.path.join(worker.cache_dir, "extjobs", os.path.basename(ctx["scratch"]))
    os.makedirs(job.ext_dir, mode=0o755, exist_ok=True)
    os.chmod(os.path.dirname(job.ext_dir), 0o711)
    ctx["read_paths"] = list(ctx.get("read_paths") or []) + [job.ext_dir]
    ctx["ext_dir"] = job.ext_dir  # the runtime wall names, wraps and accounts modules loaded from here
    ctx["capability"] = (worker.env or {}).get("capability")  # the arch its CUDA extensions are built for


def cleanup_job(job):
    if getattr(job, "ext_dir", None):
        shutil.rmtree(job.ext_dir, ignore_errors=True)


class Scheduler:
    def __init__(self, worker, root, parallel=None):
        self.worker = worker
        self.root = root
        os.makedirs(root, mode=0o711, exist_ok=True)
        self.parallel = int(parallel) if isinstance(parallel, int) and parallel > 0 else default_parallel()
        self.queue = []
        self.running = {}  # stdout fd -> Build
        self.by_key = {}
        self.tc = None
        self.slots = 0
        self.stats = {"built": 0, "cached": 0, "coalesced": 0, "failed": 0}

    def toolchain(self):
        if self.tc is None:
            self.tc = builder.toolchain()
        return self.tc

    # ---- requests ---------------------------------------------------------------------------------------
    def on_message(self, job, msg):
        """A part of a candidate's build request; the whole one starts (or joins) a build."""
        w = self.worker
        parts = getattr(job, "build_parts", None)
        seq, part, n, data = msg.get("seq"), msg.get("part"), msg.get("parts"), msg.get("data")
        if not (type(seq) is int and type(part) is int and type(n) is int and isinstance(data, str)) or \
                n < 1 or not 0 <= part < n or getattr(job, "building", None):
            return w.invalid(job, "a malformed build request")
        if part == 0:
            parts = job.build_parts = []
        if parts is None or len(parts) != part:
            return w.invalid(job, "build request parts out of order")
        parts.append(data)
        if sum(len(p) for p in parts) > builder.MAX_REQUEST:
            return w.fail(job, "FAIL_STATIC", job.stage, ["EXTENSION_SOURCE"],
                          f"the extension's build request is larger than {builder.MAX_REQUEST} bytes")
        if part + 1 < n:
            return
        job.build_parts = None
        try:
            req = builder.validate(json.loads("".join(parts)))
            key = builder.cache_key(req, self.toolchain())
        except ValueError as e:
            return w.invalid(job, f"a build request that is not JSON ({e})")
        except builder.Refused as e:
            return w.fail(job, "FAIL_STATIC", job.stage, [e.code], str(e))
        except (OSError, RuntimeError) as e:
            job.infra = f"the extension builder could not start: {e}"[:500]
            return kill(job)
        # the stage's clock stops while the build waits and runs; the build's own time is charged at its end
        now = time.monotonic()
        job.build_left = max(0.0, (job.deadline or now) - now)
        job.deadline = None
        job.building = seq
        job.mark("build_request")
        done = os.path.join(self.root, key)
        if os.path.isfile(os.path.join(done, "result.json")):
            self.stats["cached"] += 1
            return self.answer(job, seq, req, key, done, {"ok": True}, 0.0)
        b = self.by_key.get(key)
        if b is not None:
            self.stats["coalesced"] += 1
        else:
            b = self.by_key[key] = Build(key, req)
            self.queue.append(b)
        b.waiters.append((job, seq))
        self.pump()

    # ---- builds -----------------------------------------------------------------------------------------
    def pump(self):
        while self.queue and len(self.running) < self.parallel:
            b = self.queue.pop(0)
            b.waiters = [(j, s) for j, s in b.waiters if self.alive(j)]
            if not b.waiters:
                del self.by_key[b.key]
                continue
            try:
                self.start(b)
            except builder.Refused as e:  # a CUDA extension where there is no nvcc
                del self.by_key[b.key]
                shutil.rmtree(b.dir, ignore_errors=True)
                for job, _ in b.waiters:
                    self.worker.fail(job, "UNVERIFIABLE", job.stage, ["BACKEND_UNSUPPORTED"], str(e))

    def alive(self, job):
        return job.failure is None and job.infra is None and not job.cancelled and job.fd in self.worker.running

    def start(self, b):
        tc = self.toolchain()
        b.dir = os.path.join(self.root, f"{b.key}.build-{os.getpid()}-{time.monotonic_ns()}")
        os.makedirs(b.dir, mode=0o700)
        self.slots = (self.slots + 1) % 64
        uid = BUILDER_UID_BASE + (os.getpid() % 10**6) * 64 + self.slots if os.geteuid() == 0 else None
        limit = max(1.0, max(getattr(j, "build_left", 120.0) for j, _ in b.waiters))
        builder.write_plan(b.req, tc, b.dir, limit, uid)
        b.proc = builder.spawn(b.dir)
        os.set_blocking(b.proc.stdout.fileno(), False)
        b.started = time.monotonic()
        b.deadline = b.started + limit
        self.running[b.proc.stdout.fileno()] = b
        self.worker.sel.register(b.proc.stdout.fileno(), selectors.EVENT_READ, b)

    def read(self, b):
        try:
            data = os.read(b.proc.stdout.fileno(), 65536)
        except BlockingIOError:
            return
        if data:
            b.out = (b.out + data)[-8000:]
            return
        self.ended(b, timed_out=False)

    def ended(self, b, timed_out):
        fd = b.proc.stdout.fileno()
        self.worker.sel.unregister(fd)
        del self.running[fd]
        b.proc.stdout.close()
        b.proc.wait()
        spent = time.monotonic() - b.started
        res = {"ok": False, "log": b.out.decode("utf-8", "replace")}
        try:
            with open(os.path.join(b.dir, "result.json")) as f:
                res = json.load(f)
        except (OSError, ValueError):
            pass
        if timed_out:
            res = {"ok": False, "timeout": True, "log": "the build ran past its limit"}
        done = os.path.join(self.root, b.key)
        so = os.path.join(b.dir, f"{b.req['name']}.so")
        if res.get("ok") and os.path.isfile(so) and not os.path.islink(so):
            self.stats["built"] += 1
            shutil.rmtree(done, ignore_errors=True)
            os.rename(b.dir, done)
            os.chmod(done, 0o711)
        else:
            self.stats["failed"] += 1
            done = None
        self.by_key.pop(b.key, None)
        for job, seq in b.waiters:
            if self.alive(job):
                self.answer(job, seq, b.req, b.key, done, res, spent)
        if done is None:
            shutil.rmtree(b.dir, ignore_errors=True)
        self.pump()

    def answer(self, job, seq, req, key, done, res, spent):
        """Charges the build's time to the job's stage, judges the module, answers the candidate."""
        w = self.worker
        job.building = None
        left = job.build_left - spent
        job.notes.append(f"extension {req['name']}: " + ("from the cache" if spent == 0.0 else f"built in {spent:.1f} s"))
        if res.get("timeout") or left <= 0:
            return w.fail(job, "TIMEOUT", job.stage, ["STAGE_TIMEOUT"],
                          f"building the extension {req['name']} took {spent:.1f} s, past the {job.stage} stage's "
                          f"remaining {job.build_left:.1f} s (time queued for a builder is not counted)")
        job.deadline = time.monotonic() + left
        if not res.get("ok"):
            return w.send_command(job, {"do": "built", "seq": seq, "ok": False,
                                        "message": str(res.get("log", ""))[-6000:]})
        so = os.path.join(done, f"{req['name']}.so")
        policy = job.req.get("policy", "strict")
        try:
            findings = elfimports.judge(so, policy)
        except (OSError, ValueError, IndexError, struct.error) as e:
            findings = [("EXTENSION_IMPORT", f"is not an ELF module the judge can read ({e})", "")]
        bad = [f for f in findings if f[0] in elfimports.FATAL]
        for code, message, sym in findings:
            if code not in elfimports.FATAL:
                notes = job.static_notes = list(getattr(job, "static_notes", None) or [])
                notes.append({"code": code, "line": 0, "message": f"extension {req['name']}: {message}",
                              "fatal": False, **({"op": sym} if code == "TORCH_CORE_OP_ALLOWED" else {})})
        if bad:
            return w.fail(job, "FAIL_STATIC", job.stage, [c for c, _, _ in bad],
                          f"the built extension {req['name']} " + "; ".join(m for _, m, _ in bad[:5]) +
                          (f" (and {len(bad) - 5} more)" if len(bad) > 5 else ""))
        dest = os.path.join(job.ext_dir, key[:16])
        os.makedirs(dest, mode=0o755, exist_ok=True)
        target = os.path.join(dest, f"{req['name']}.so")
        if not os.path.exists(target):  # never rewritten in place: the candidate may have it mapped already
            shutil.copyfile(so, target + ".tmp")
            os.chmod(target + ".tmp", 0o644)
            os.rename(target + ".tmp", target)
        w.send_command(job, {"do": "built", "seq": seq, "ok": True, "path": target})

    # ---- the worker's loop ------------------------------------------------------------------------------
    def deadline(self):
        return min((b.deadline for b in self.running.values()), default=None)

    def expire(self):
        now = time.monotonic()
        for b in list(self.running.values()):
            if now > b.deadline:
                try:
                    os.killpg(b.proc.pid, signal.SIGKILL)
                except OSError:
                    pass
                self.ended(b, timed_out=True)

    def stop(self):
        for b in list(self.running.values()):
            try:
                os.killpg(b.proc.pid, signal.SIGKILL)
            except OSError:
                pass
            self.ended(b, timed_out=True)
