"""The worker's task servers (a mixin of worker.Worker, whose state it reads and writes): a task's
references computed in a trusted task server (trusted.TaskServer) while the loop goes on, the order in
which waiting requests get a server, a server that dies under a request, the references kept on disk and
memory-mapped, the task's reference timing (reftiming.py) and the verdicts that wait for it (RefTimer).
"""
import hashlib
import json
import os
import selectors
import time

from .. import log, rules
from ..rules import MAX_SERVER_RETRIES, REF_OPEN, REF_TIMING_TIMEOUT
from . import refstore, taskref, trusted
from ..sandbox import taskbox
from ..sandbox.admission import CHILD_GPU_BASE, CHILD_HOST_BASE, Asked


class RefTimer:
    """The reference timing of one task (see reftiming.py), and the verdicts waiting for it."""

    def __init__(self):
        self.result = None
        self.parked = []  # (job, exit status, log) of timed candidates whose verdict needs the reference


class TaskServing:
    """worker.Worker's task requests and references. It uses the worker's cache_dir, scratch_root,
    session_dir, lock_path, device, env, budgets, host_budget, gpu_budget, promised_gpu, disk_promised, tasks,
    refs, reftimers, pending_refs, queue, running, screened, ref_parallel, ref_servers, ref_waiting,
    timing_waiting, room_waiting, trusted and sel, and calls its emit, hello, grant_room, disk_grant and
    conclude."""

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
        lost = isinstance(answer, dict) and answer.get("context_lost")
        if lost:  # the server exited after this answer (trusted.serve): the next request gets a fresh one
            srv.stop()
            log(f"{srv.name}: its device context was lost ({str(lost)[:200]}); a fresh server takes the next request")
        again = self.again_without_set(ask.req, answer.get("res")) if isinstance(answer, dict) else None
        if again is not None:
            self.next_request(srv)
            return self.ask(again, ask.timeout, ask.on_done, ask.gpu)
        if lost and "error" in answer and ask.req is not None:  # the request failed with the context: as a death
            answer, srv.last_exit = False, f"the device context was lost: {str(lost)[:200]}"
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

    def again_without_set(self, req, res):
        """The references request asked again, in a fresh server, without the derived set that lost the device
        context (taskref's SetGuard named it): a set is an extra, never the task's verdict. After
        rules.MAX_CONTEXT_SKIPS sets, or when the context was lost outside a named set, without derived sets.
        None when the answer is not such a loss."""
        lost = isinstance(res, dict) and res.get("context_lost")
        if not lost or req is None or req.get("op") != "references":
            return None
        skip = list(req.get("skip_sets") or [])
        name = lost.get("set")
        log(f"task {req.get('task_key')}: {lost.get('message')}; its references are computed again without it")
        if name in (None, "task") or name in skip or len(skip) >= rules.MAX_CONTEXT_SKIPS:
            return dict(req, input_sets=False)
        return dict(req, skip_sets=skip + [name])

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
                yield refstore.cache_path(self.session_dir, task["req"]["task_key"], s["code_hash"], shape, secret,
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
                freed += refstore.remove_ref(p)
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
                    refstore.remove_ref(p)
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
            p = refstore.cache_path(self.session_dir, task["req"]["task_key"], s["code_hash"], s["shapes"][si], secret,
                                   taskref.input_set_of(s, si))
            hit = refstore.load_ref(p)
        self.refs[key] = hit  # most recently used last
        while len(self.refs) > REF_OPEN:
            self.refs.popitem(last=False)
        return hit

    def expected_metas(self, task, si, seed):
        s = task["summary"]
        return [(d, list(shape)) for d, shape in s["metas"][si][s["seeds"].index(seed)]]

    def time_ahead(self, req):
        """A timed sample of a task whose references are ready: the task's reference timing starts now, not
        when the sample reaches its timing stage (the sample's verdict waits for it; it takes an Inductor
        compile, seconds, where a candidate's checks take a fraction of one)."""
        task = self.tasks.get(req.get("task_key"))
        if req.get("timing") and self.timed and task and task["ready"]["ok"] and not task.get("evicted") \
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
