"""The verdict rules: what a job's recorded facts (its child's messages, exit status, checks and timings)
make of it. Pure functions, no I/O and no state of the worker, so each rule is tested on its own
(tests/worker/test_rules.py, without torch); the worker (worker.py) gathers the facts and emits what they
decide.

A rule returns a Verdict, or None where it has nothing to say and the next rule decides. A "job" argument is
anything with the attributes worker.Job records (a types.SimpleNamespace in the tests).
"""
import collections
import os
import signal

from .static import static  # stdlib only, like this module

MAX_INFRA_RETRIES = 3
MAX_REF_DEVICE_RETRIES = 2  # a reference out of device memory beside others: again, then alone (taskref.DeviceFull)
# A stage that ran out of time while its candidate waited for a CPU at least this share of the stage (it got a
# quarter of the CPU it asked for, or less) was stopped by the machine's load, not by the sample (stage_load):
# retried alone, with the full limit, MAX_LOAD_RETRIES times; loaded on every attempt, the sample is left
# PENDING (harness_fault LOAD_TIMEOUT). A host merely two or three times oversubscribed (tests side by side on
# a 2-core CI machine) stays below it: its timeouts are the samples'.
LOAD_WAIT_SHARE = 0.75
MAX_LOAD_RETRIES = 1  # the engine's watchdog allows for these (verificationengine.cpp kLoadAttempts)
PEAK_BANDWIDTH = {"H200": 4.8e12, "H100": 3.35e12, "A100": 2.0e12, "L40S": 0.864e12, "A10": 0.6e12}

# the worker loop's limits (worker.py and its mixins)
REF_TIMING_TIMEOUT = 900
MAX_SERVER_RETRIES = 2  # a request whose task server dies is asked again this often before it is the task's
MAX_CONTEXT_SKIPS = 6  # derived sets a task's references are asked again without, each having lost the device
#                        context (tasks/context.py), before they are asked without derived sets
REF_OPEN = 16  # memory-mapped reference sets kept open
REF_PARALLEL = 4  # task servers of a GPU worker (large references take turns: taskref.take_lock)
JUDGE_TIMEOUT = 300  # seconds for the judge to recompute a reference and compare one call's outputs (a judge
# that takes longer is stopped and the job retried)

# extra: the verdict line's further fields (log, speedup, flags, kernels, ...), in the order they are emitted
Verdict = collections.namedtuple("Verdict", "status stage reasons message extra")


def verdict(status, stage, reasons, message, **extra):
    return Verdict(status, stage, reasons, message, extra)


def summary_secrets(task):
    return (task or {}).get("summary", {}).get("secret_seeds", [])


def summary_labels(task):
    return (task or {}).get("summary", {}).get("seeds", [])


def status_of(code):
    return {"COMPILE_ERROR": "FAIL_COMPILE", "RUNTIME_ERROR": "FAIL_RUNTIME", "OUT_OF_BOUNDS": "FAIL_RUNTIME",
            "ILLEGAL_ADDRESS": "FAIL_RUNTIME", "MEMORY_LIMIT": "FAIL_SANDBOX", "SANDBOX": "FAIL_SANDBOX",
            "RAW_MEMORY_ACCESS": "FAIL_SANDBOX", "WALL_TAMPERED": "FAIL_SANDBOX", "SUBPROCESS": "FAIL_SANDBOX",
            "DEVICE_PRINT": "FAIL_SANDBOX"}.get(code, "FAIL_RUNTIME")


def static_failure(findings):
    """FAIL_STATIC for stage 0's fatal findings (static.check), named by the first; None if none is fatal."""
    bad = static.fatal(findings)
    if not bad:
        return None
    first = bad[0]
    return verdict("FAIL_STATIC", "static", [f.code for f in bad], f"line {first.line}: {first.message}",
                   log="\n".join(f"line {f.line}: {f.code}: {f.message}" for f in findings),
                   findings=[f.to_json() for f in findings])


def cpu_fallback(findings, device, notes):
    """On the CPU the answer's CPU-only branch is the one that runs: its torch code would be verified instead
    of the kernels the GPU path launches."""
    fallback = next((f for f in findings if f.code == "CPU_FALLBACK_NOTE"), None)
    if fallback is None or device != "cpu":
        return None
    return verdict("UNVERIFIABLE", "static", ["CPU_FALLBACK_ON_CPU"],
                   f"line {fallback.line}: the answer has a CPU-only branch, which is what runs on "
                   "the CPU: its GPU path can only be verified on a GPU", findings=notes)


def mismatch(si, label, res, atol, rtol, what=""):
    """FAIL_MISMATCH for a check (compare.compare's dict) whose outputs differ from the reference: MISMATCH, and
    NONFINITE_MISMATCH beside it where NaN/inf differ, as the native path gives them. The checks run in a secret
    order and the first that fails decides: MISMATCH alone for NaN in one check and wrong numbers in another made the
    reason change from run to run (an expected reason MISMATCH failed one run in some)."""
    reasons = ["MISMATCH"]
    if res["nonfinite_mismatches"]:
        reasons.append("NONFINITE_MISMATCH")
    msg = (f"{what}shape {si} seed {label}: {res['mismatches']} values outside atol={atol:g} rtol={rtol:g} "
           f"(max abs {res['max_abs']:.3g}), {res['nonfinite_mismatches']} NaN/inf mismatches")
    if res.get("note"):
        msg = f"{what}shape {si} seed {label}: {res['note']}"
    return verdict("FAIL_MISMATCH", "correct", reasons, msg)


# A check that fails by at most this many times the tolerance, with no NaN/inf and no shape or dtype of its own, is
# made once more on the same inputs (messages.CandidateMessages.on_output): outputs that differ between the two
# calls flag NONDETERMINISTIC on the failure, as a timed call's do on a PASS. A sample's own float atomics near the
# tolerance pass in one run and fail in the next (bench/RESULTS.md, 100_HingeLoss/triton_atomic_mean); the flag says
# so on both. The verdict stays the first check's.
RECHECK_NEAR = 10


def near_tolerance(res, atol, rtol):
    """Whether a failed check is near enough the tolerance to be made again (RECHECK_NEAR)."""
    return (not res.get("note") and not res["nonfinite_mismatches"]
            and (res["max_abs"] <= RECHECK_NEAR * atol or res["max_rel"] <= RECHECK_NEAR * rtol))


def checked_call(si, label, res, atol, rtol, mutated, launches):
    """What one call's compared outputs decide: a mismatch first, then inputs the forward changed, then
    outputs that match without any of the sample's kernels running; None when the call passes."""
    if not res["ok"]:
        return mismatch(si, label, res, atol, rtol)
    if mutated:
        return verdict("FAIL_MISMATCH", "correct", ["INPUT_MUTATED"],
                       f"shape {si} seed {label}: the forward changed its inputs")
    if launches == 0:
        return verdict("FAIL_SHAM", "proof", ["KERNEL_NOT_RUN"],
                       f"shape {si} seed {label}: the outputs match but none of the sample's kernels ran")
    return None


def harness_failed(infra, stage, attempts, logall, code="DEVICE_UNAVAILABLE"):
    """A job the harness could not run (job.infra) in `attempts` attempts: never the sample's fault. `code`
    says what failed: the device (DEVICE_UNAVAILABLE) or the candidate's sandbox (SANDBOX_UNAVAILABLE)."""
    what = "set up the candidate's sandbox" if code == "SANDBOX_UNAVAILABLE" else "use the GPU"
    return harness_fault(stage, code, f"the verifier could not {what} ({infra}) in {attempts} attempts: "
                         "the harness's fault, not the sample's", [infra] * attempts, logall)


def harness_fault(stage, code, message, attempts, logall=""):
    """No verdict: the harness could not judge the sample (its device, its sandbox, its own load, a request it
    could not serve). The line is a verdict line marked `harness_fault`; the engine records nothing for the
    sample, which stays PENDING for the next `verify`, and counts it under `code` in the run's summary. A
    worker used without the engine (selftest) reads it as UNVERIFIABLE."""
    return verdict("UNVERIFIABLE", stage, [code], message, log=logall,
                   harness_fault={"code": code, "attempts": [str(a)[:300] for a in attempts]})


def native_no_result(st, stage, logall):
    """cuda-verify ended without its JSON line: whatever it was doing, the process crashed."""
    why = (f"signal {signal.Signals(os.WTERMSIG(st)).name}" if os.WIFSIGNALED(st)
           else f"exit status {os.WEXITSTATUS(st)}")
    return verdict("CRASH", stage, ["SIGNAL"], f"native verification ended ({why}) without a result", log=logall)


def ended_early(job, st, logall):
    """The verdict of a job whose child did not report done, or whose fate was decided before: in order of
    precedence cancelled, a sandbox violation, a timeout, a failure decided while it ran (job.failure), the
    child's own error report, then its death (wait status st). None once the child reported done."""
    if job.cancelled:
        return verdict("CANCELLED", job.stage, [], "cancelled", log=logall)
    if job.violations and all(x["code"].startswith("TASK_") for x in job.violations):
        v = job.violations  # the task module's own code did it (sandbox.Auditor.from_task): not the sample
        return verdict("UNVERIFIABLE", job.stage, ["TASK_REACHES_OUTSIDE"] + [x["code"] for x in v],
                       f"the task's reference code tried something the sandbox forbids (not the sample's fault): "
                       f"{v[0]['detail']}", log="\n".join(x["detail"] for x in v) + "\n" + logall)
    if job.violations:
        v = [x for x in job.violations if not x["code"].startswith("TASK_")]
        return verdict("FAIL_SANDBOX", job.stage, [x["code"] for x in v],
                       f"the sample tried something the sandbox forbids: {v[0]['detail']}",
                       log="\n".join(x["detail"] for x in v) + "\n" + logall)
    if getattr(job, "oom_killed", False):
        cg = job.cgroup or {}
        return verdict("FAIL_RUNTIME", job.stage, ["MEMORY_LIMIT"],
                       f"the candidate reached its memory limit ({cg.get('memory_bytes', 0) >> 20} MiB, its cgroup's "
                       f"memory.max) in the {job.stage} stage and the kernel killed it", log=logall)
    if job.timed_out:
        load = getattr(job, "load", None) or {}
        earlier = getattr(job, "load_faults", None) or []
        note = f" ({load['evidence']})" if load.get("evidence") else ""
        if earlier:
            note += "; earlier attempts ran out of time under load: " + "; ".join(earlier)
        return verdict("TIMEOUT", job.stage, ["STAGE_TIMEOUT"],
                       f"the {job.stage} stage ran past its {job.timeouts.get(job.stage, 120)} s limit{note}",
                       log=logall)
    if job.failure:
        status, stage, reasons, message = job.failure
        return verdict(status, stage, reasons, message, log=logall)
    if job.error:
        e = job.error
        code = e["code"]
        status = status_of(code)  # a refusal of the sandbox's is FAIL_SANDBOX under its reason's name
        if code == "SANDBOX":
            code = "WRITE_OUTSIDE_SCRATCH"
        stage = "compile" if code == "COMPILE_ERROR" else e["stage"]
        return verdict(status, stage, [code], e["message"], log=e.get("traceback", "") + "\n" + logall)
    if job.done is None:
        return died(st, job.stage, logall)
    return None


def stage_load(elapsed, before, after, alone, beside):
    """Why a stage ran out of time: {"loaded": bool, "evidence": str}. `before`/`after` are the candidate's
    (on-CPU, waiting-for-a-CPU) seconds at the stage's start and deadline (probes.sched_times; None where the
    kernel keeps no schedstat). The sample is slow when it had the CPU it asked for: it waited for one less than
    LOAD_WAIT_SHARE of the stage. It was stopped by load when it spent more of its stage runnable but waiting
    (other candidates, builds and task servers of the worker, or anything else on the host). Without
    schedstat, a stage that ran beside other jobs of the worker counts as loaded until it has run alone."""
    if before is None or after is None or elapsed <= 0:
        loaded = beside > 0 and not alone
        return {"loaded": loaded, "evidence": f"no scheduler statistics; {beside} other jobs ran beside it"}
    run, wait = max(0.0, after[0] - before[0]), max(0.0, after[1] - before[1])
    loaded = wait >= LOAD_WAIT_SHARE * elapsed
    return {"loaded": loaded, "run_s": round(run, 2), "wait_s": round(wait, 2), "elapsed_s": round(elapsed, 2),
            "evidence": f"on a CPU {run:.1f} s and waiting for one {wait:.1f} s of its {elapsed:.1f} s"
                        f"{', alone' if alone else f', beside {beside} other jobs'}"}


def killed_from_outside(job, st):
    """Why the candidate's end looks like a kill from outside (SIGKILL the worker did not send, without a
    result, an error, a violation or a limit of its own), or None. Its own memory limit (a cgroup OOM kill,
    job.oom_killed) is the sample's."""
    if not os.WIFSIGNALED(st) or os.WTERMSIG(st) != signal.SIGKILL:
        return None
    if job.cancelled or job.timed_out or job.failure or job.violations or job.error or job.done is not None \
            or job.infra or getattr(job, "oom_killed", False):
        return None
    return "SIGKILL from outside the verifier"


def killed_every_attempt(kills, stage, logall):
    """A candidate killed from outside on every attempt: then it is the sample's (it kills itself, or its
    use of the machine is what draws the kill), with each attempt as the evidence."""
    return verdict("CRASH", stage, ["SIGNAL", "KILLED_EVERY_ATTEMPT"],
                   f"the candidate was killed (SIGKILL) on each of {len(kills)} attempts: " + "; ".join(kills),
                   log=logall)


def died(st, stage, logall):
    """A candidate gone without a result: the CPU and file-size limits have their own verdicts."""
    if os.WIFSIGNALED(st):
        sig = os.WTERMSIG(st)
        if sig == signal.SIGXCPU:
            return verdict("TIMEOUT", stage, ["STAGE_TIMEOUT"], "CPU time limit reached", log=logall)
        if sig == signal.SIGXFSZ:
            return verdict("FAIL_SANDBOX", stage, ["WRITE_OUTSIDE_SCRATCH"], "file size limit reached", log=logall)
        return verdict("CRASH", stage, ["SIGNAL"],
                       f"the candidate process died from signal {signal.Signals(sig).name} in the {stage} stage",
                       log=logall)
    return verdict("CRASH", stage, ["SIGNAL"], f"the candidate process exited ({os.WEXITSTATUS(st)}) without a result",
                   log=logall)


def wall_unsealed(job, logall):
    """A child that ran under the runtime wall must end with the wall's seal report: without it a report may
    have been suppressed (its pipe replaced, the process cut short after a window)."""
    if not getattr(job, "wall", False) or getattr(job, "wall_sealed", False):
        return None
    return verdict("FAIL_SANDBOX", job.stage, ["WALL_TAMPERED"],
                   "the runtime wall's closing report is missing (its report pipe was replaced or closed)", log=logall)


def unproven(job, logall):
    """A child that reported done still fails without every check back, with no launch of its own kernels,
    or without the proof probe; None when all three hold."""
    if job.seen != job.expected_keys:
        return verdict("FAIL_RUNTIME", job.stage, ["RUNTIME_ERROR"],
                       f"only {len(job.checks)} of {job.expected} checks came back", log=logall)
    if job.launches == 0:
        return verdict("FAIL_SHAM", "proof", ["KERNEL_NOT_RUN"], "none of the sample's kernels ran", log=logall)
    if job.probe != "ok":
        return verdict("FAIL_SHAM", "proof", ["OUTPUT_NOT_FROM_KERNEL"], "the proof probe did not run", log=logall)
    return None


def passed(job, logall, gpu, device):
    """The verdict of a proven job: PASS (with its speedup over eager when timed), or FAIL_SHAM when its
    timing is below the memory roofline of the GPU (named as in the environment; an unknown one gets a
    generous 8 TB/s) for the bytes the reference moves."""
    extra = {"kernels": job.done.get("kernels", [])}
    flags, speedup = [], None
    if job.timings:
        by = {t["which"]: t for t in job.timings}
        cand = by.get("candidate")
        if cand and by.get("eager"):
            speedup = by["eager"]["median_ms"] / cand["median_ms"] if cand["median_ms"] > 0 else None
            if speedup and speedup > 10:
                flags.append("SPEEDUP_OVER_10X")
        peak = next((v for k, v in PEAK_BANDWIDTH.items() if k in gpu), 8e12)
        if cand and job.bytes_moved:
            floor_ms = job.bytes_moved / peak * 1e3
            extra["roofline_floor_ms"] = floor_ms
            if cand["median_ms"] < floor_ms:
                return verdict("FAIL_SHAM", "timing", ["BELOW_ROOFLINE"],
                               f"{cand['median_ms']:.4f} ms is below the memory roofline floor "
                               f"{floor_ms:.4f} ms for {job.bytes_moved} bytes", log=logall,
                               speedup=speedup, flags=flags, **extra)
    n = len(job.checks)
    msg = f"matches the reference on {n} shape/seed checks; {job.launches} launches of its own kernels"
    if device == "cpu":
        msg += " (CPU-interpreted, timed only to test the timing path)" if job.timings else " (CPU-interpreted, not timed)"
    return verdict("PASS", "timing" if job.timings else "proof", [], msg, log=logall,
                   speedup=speedup, flags=flags, **extra)
