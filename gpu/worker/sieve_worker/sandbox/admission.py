"""Admission: what the worker's children and task servers are promised of the host's and the device's memory,
and in which order they get it (a mixin of worker.Worker, whose state it reads: budgets, promises, the
running jobs and the requests waiting for room). Pure bookkeeping, no I/O but the grants it sends; each
rule is tested without processes (tests/worker/test_transport.py).

A job starts with its host memory and its device context's share (admit); the rest of its device memory
is granted when its code is built (ready_to_call), in order with the task servers' requests for room
(grant_room). What one job at a time uses, the judge's working set and the timing stage's memory, is
held once for all (shared_gpu).
"""
import os
import time

from .. import log
from . import probes
from ..data import transport

HOST_RESERVE = 4 << 30  # host memory never promised to children (the worker, the engine, the OS)
GPU_RESERVE = 6 << 30  # GPU memory never promised (the task servers' and the judge's contexts, fragmentation)
CHILD_HOST_BASE = 1 << 30  # a candidate child's own host memory beside its outputs (interpreter, torch, CUDA)
CHILD_GPU_BASE = 1 << 30  # its CUDA context, workspaces, Triton's scratch
CHUNK_TEMP = 3 << 30  # the judge's context and its float64 temporaries of one chunk (judge.CHUNK)
REF_DISK_SHARE = 0.5  # at most this share of the cache disk's free space holds references


class Asked:
    """A request out to a task server (trusted.Server running trusted.TaskServer): on_done(answer or None,
    timed_out) runs in the loop when its answer comes, the server dies or the deadline passes."""

    def __init__(self, server, deadline, on_done, gpu):
        self.server, self.deadline, self.on_done, self.gpu = server, deadline, on_done, gpu
        self.need = 0  # device memory it asked for within the request and waits for (Worker.grant_room)
        self.disk = None  # a reference's share of the disk, promised while it runs (Worker.send_to)
        self.req = self.timeout = None  # the request and its timeout, to ask again when the server dies


class Admission:
    """worker.Worker's memory bookkeeping. It uses the worker's host_budget, gpu_budget, promised_host,
    promised_gpu, promised_bases, room_waiting, running, tasks, session_dir, device, trusted and
    ref_parallel, and calls its next_call, start_reference and pending_refs."""

    def grant_room(self):
        """Grants device memory to those waiting for it in the order they asked (task servers within a
        request: a large reference; jobs whose code is built: their calls), each when it fits beside what is
        promised, or when nothing else holds a grant: one larger than the budget waits for the device to be
        idle, not forever, and a job whose code still builds holds only its context's share, which no other
        waits for. Called whenever a promise ends."""
        while self.room_waiting:
            w = self.room_waiting[0]
            is_job = not isinstance(w, Asked)
            extra = self.shared_gpu(w) - self.shared_gpu() if is_job else 0
            active = self.promised_gpu - self.promised_bases - (0 if is_job else w.gpu)
            if self.gpu_budget is not None and active > 0 and \
                    self.promised_gpu + self.shared_gpu() + extra + w.need > self.gpu_budget:
                return
            self.room_waiting.pop(0)
            self.promised_gpu += w.need
            if is_job:
                self.promised_bases -= w.gpu_bytes
                w.gpu_bytes += w.need
                w.need, w.granted = 0, True
                w.mark("granted")
                w.deadline = time.monotonic() + (w.deadline_left or 0)
                w.deadline_left = None
                self.next_call(w)
                continue
            w.gpu += w.need
            if getattr(w, "asked_at", None) is not None:
                w.deadline += time.monotonic() - w.asked_at  # its wait for room is not its own time
                w.asked_at = None
            try:
                w.server.reply({"granted": w.need})
            except OSError:
                pass  # its death is read next
            log(f"{w.need} bytes of device memory promised to a reference (promised now {self.promised_gpu})")

    def room_wanted(self):
        """Device memory task servers and jobs wait for (grant_room gives it in order)."""
        return sum(w.need for w in self.room_waiting)

    def shared_gpu(self, also=None):
        """Device memory held for what one job at a time uses, while a job that needs it holds its grant: the
        judge's working set (it compares one call at a time) and the timing stage's memory beyond a job's
        calls (it runs under the GPU's timing lock, one job at a time, and a child frees its calls' memory
        before it times); with `also`, as if that job held its grant too."""
        jobs = [j for j in self.running.values() if j.granted] + ([also] if also is not None else [])
        return max((j.judge_bytes for j in jobs), default=0) + max((j.timing_extra for j in jobs), default=0)

    def ready_to_call(self, job):
        """The job's code is built (its child said "ready"): its calls' device memory is asked for, and its
        first call is sent when it is granted (grant_room). Its stage's clock stops meanwhile."""
        job.need = max(0, job.gpu_full - job.gpu_bytes)
        if job.deadline is not None:
            job.deadline_left = max(0.0, job.deadline - time.monotonic())
        job.deadline = None
        self.room_waiting.append(job)
        self.grant_room()

    def disk_grant(self):
        """The disk a reference computation starting now may fill: the share of the free space not yet
        promised to the ones running, split with the task servers that may start beside it. What a finished
        one wrote shows in the free space; what a running one wrote counts twice until it ends (safe)."""
        running = sum(1 for a in self.trusted.values() if a.disk is not None)
        return max(0, self.ref_disk_free() - self.disk_promised) // max(1, self.ref_parallel - running)

    def ref_disk_free(self):
        try:
            st = os.statvfs(self.session_dir)
            return int(st.f_bavail * st.f_frsize * REF_DISK_SHARE)
        except OSError:
            return 1 << 40

    def footprint(self, task, req):
        """What a candidate child of this task may need: {"host": its output buffer and a base for the
        interpreter and torch, "base": its device context's share (held while its code builds), "gpu": that
        and its calls' device memory (inputs, saved inputs, outputs, the poison block, parameters),
        "timing_extra": what its timing needs beyond that (three input sets of shape 0, a
        fresh copy per call, the kept timed output), "judge": the judge's working set for its recompute
        shapes}. The last two are held once for all jobs (shared_gpu)."""
        s = task["summary"]
        out_buf = max((transport.layout([(d, sh) for d, sh in m])[1] for per_shape in s.get("metas", [])
                       for m in per_shape), default=0)
        foot = [f for f in s.get("footprint", []) if f] or [{"in": 0, "out": 0, "params": 0}]
        big = max(2 * f["in"] + 2 * f["out"] + 2 * f["params"] for f in foot)
        params = max(f["params"] for f in foot)
        if self.device == "cpu":
            return {"host": CHILD_HOST_BASE + out_buf + big, "base": 0, "gpu": 0, "timing_extra": 0, "judge": 0}
        timing = 0
        if req.get("timing"):
            f0 = foot[0]
            timing = max(0, 4 * f0["in"] + 3 * f0["out"] + 2 * f0["params"] - big)
        held = [f for f, r in zip(s.get("footprint", []), s.get("recompute", [])) if f and r]
        # the judge holds the task's inputs and a derived set's while it makes the set (inputsets.derive, chunk by
        # chunk), then the set's inputs and the reference's outputs
        judge_bytes = max((max(2 * f["in"], f["in"] + f["out"]) + f["params"] + CHUNK_TEMP for f in held), default=0)
        return {"host": CHILD_HOST_BASE + out_buf + 2 * params, "base": CHILD_GPU_BASE, "gpu": CHILD_GPU_BASE + big,
                "timing_extra": timing, "judge": judge_bytes}

    def admit(self, job):
        """Whether a queued job may start now: its host memory and its device context fit beside what the
        running children were promised, and the host has that much available right now; its calls' device
        memory is asked for once its code is built (ready_to_call), so an answer that compiles for a minute
        (nvcc) holds no gigabytes meanwhile. With nothing running a job always starts (its task passed the
        size check when its references were made)."""
        task = self.tasks.get(job.req.get("task_key"))
        if task is not None and task.get("evicted"):
            # its references were removed to make room for another task's: computed again, then it runs
            key = task["req"]["task_key"]
            if key not in self.pending_refs:
                self.start_reference(key, task["sig"], task["req"], task["path"], announce=False)
            return False
        if task is None or not task["ready"]["ok"] or job.req.get("backend") == "nki":
            return True  # answered without a child
        fp = self.footprint(task, job.req)
        host, base = fp["host"], fp["base"]
        if self.running and (job.alone or any(j.alone for j in self.running.values())):
            return False  # a job that runs alone has the worker's candidates to itself, from start to end
        if self.running:
            if self.promised_host + host > self.host_budget or probes.mem_available() - HOST_RESERVE < host:
                return False
            if self.gpu_budget is not None and self.promised_gpu + self.shared_gpu() + base > self.gpu_budget:
                return False
        job.host_bytes, job.gpu_bytes, job.gpu_full = host, base, fp["gpu"]
        job.timing_extra, job.judge_bytes = fp["timing_extra"], fp["judge"]
        return True

    def hold(self, job):
        """A child of the job is running: what admission gave it is promised until finish()."""
        self.promised_host += job.host_bytes
        self.promised_gpu += job.gpu_bytes
        if not job.granted:
            self.promised_bases += job.gpu_bytes

    def unhold(self, job):
        if job in self.room_waiting:
            self.room_waiting.remove(job)
        self.promised_host -= job.host_bytes
        self.promised_gpu -= job.gpu_bytes
        if not job.granted:
            self.promised_bases -= job.gpu_bytes
        job.host_bytes = job.gpu_bytes = 0

