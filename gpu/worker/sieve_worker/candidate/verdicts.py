"""A job's start, end and verdict (a mixin of worker.Worker, whose state it reads and writes): stage 0
(static.py) and the screen ahead of the task, the child started (launch.py), reaped and its log read,
then a retry when the harness failed or the verdict the rules decide (rules.py), parked while the task's
reference timing runs.
"""
import json
import os
import shutil
import time

from .. import log, rules
from . import launch, native
from .job import Job
from ..extensions import sched
from ..sandbox import cgroups, probes
from ..static import static


class BadRequest(ValueError):
    """A request the engine should not have sent (an unknown policy): answered with an error line."""


class Verdicts:
    """worker.Worker's jobs from start to verdict. It uses the worker's tasks, queue, running, reftimers,
    screened, device, env, sel and judge, and calls its emit, unhold and grant_room."""

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
        v["flags"] = list(dict.fromkeys(list(v.get("flags") or []) + list(getattr(job, "run_flags", []))))
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
        if job.recheck is not None and "second" not in job.recheck and job.failure is None:
            job.failure = tuple(getattr(job.recheck["verdict"], k) for k in ("status", "stage", "reasons", "message"))
            job.notes.append("a check made again near the tolerance did not end: the first call's verdict stands")
            logall = "\n".join(x for x in ("\n".join(job.notes), logtext) if x)
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
