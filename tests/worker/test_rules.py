"""The verdict rules (sieve_worker.rules) on their own: pure functions of a job's recorded facts, so no
worker, child or torch is needed. One behaviour per test.

    PYTHONPATH=gpu/worker python -m pytest -q tests/worker/test_rules.py     (from the repository root)
"""
import os
import signal
import sys
import types

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                "gpu", "worker"))

from sieve_worker import rules  # noqa: E402
from sieve_worker.static import static  # noqa: E402

KEYS = {(0, 0), (0, 1), (1, 0), (1, 1)}

ANSWER = '''import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


class ModelNew(nn.Module):
    def forward(self, x):
{body}        y = torch.empty_like(x)
        k[(triton.cdiv(x.numel(), 128),)](x, y, x.numel(), BLOCK=128)
        return y
'''


def job(**facts):
    """A job as worker.Job records it once its child is gone: here one that passed every check."""
    j = types.SimpleNamespace(cancelled=False, violations=[], timed_out=False, failure=None, error=None,
                              done={"launches": 5, "kernels": ["k"]}, stage="proof",
                              timeouts={"compile": 120, "correct": 60, "timing": 120},
                              seen=set(KEYS), expected_keys=set(KEYS), expected=len(KEYS),
                              checks=[{} for _ in KEYS], launches=5, probe="ok", timings=None, bytes_moved=None)
    for k, v in facts.items():
        setattr(j, k, v)
    return j


def killed(sig):
    return int(sig)  # a wait status: terminated by sig, no core dump


def exited(code):
    return code << 8


def result(ok=False, mismatches=0, nonfinite=0, max_abs=0.0, note=None):
    """A check as compare.compare returns it."""
    res = {"ok": ok, "max_abs": max_abs, "max_rel": 0.0, "mismatches": mismatches, "nonfinite_mismatches": nonfinite}
    if note:
        res["note"] = note
    return res


# ---- codes and task summaries -------------------------------------------------------------------------
def test_status_of_maps_the_childs_error_codes():
    assert rules.status_of("COMPILE_ERROR") == "FAIL_COMPILE"
    for code in ("RUNTIME_ERROR", "OUT_OF_BOUNDS", "ILLEGAL_ADDRESS"):
        assert rules.status_of(code) == "FAIL_RUNTIME"
    assert rules.status_of("MEMORY_LIMIT") == "FAIL_SANDBOX"
    assert rules.status_of("SANDBOX") == "FAIL_SANDBOX"
    assert rules.status_of("RAW_MEMORY_ACCESS") == "FAIL_SANDBOX"  # ctypes/DLPack refused by the runtime wall


def test_status_of_an_unknown_code_is_a_runtime_failure():
    assert rules.status_of("SOMETHING_NEW") == "FAIL_RUNTIME"
    assert rules.status_of(None) == "FAIL_RUNTIME"


def test_summary_seeds_of_a_missing_task_are_empty():
    assert rules.summary_secrets(None) == [] and rules.summary_labels(None) == []
    assert rules.summary_secrets({"req": {}}) == [] and rules.summary_labels({"summary": {}}) == []


def test_summary_seeds_pair_secrets_with_labels():
    task = {"summary": {"seeds": [0, 1], "secret_seeds": [918273, 4455]}}
    assert dict(zip(rules.summary_secrets(task), rules.summary_labels(task))) == {918273: 0, 4455: 1}


# ---- stage 0 ------------------------------------------------------------------------------------------
def test_a_clean_answer_passes_stage_0():
    assert rules.static_failure(static.check(ANSWER.format(body=""))) is None


def test_fatal_findings_fail_static_named_by_the_first():
    findings = static.check(ANSWER.format(body="        import os\n        os.system('id')\n"))
    v = rules.static_failure(findings)
    assert v.status == "FAIL_STATIC" and v.stage == "static"
    assert v.reasons == [f.code for f in findings if f.fatal] and v.reasons
    first = next(f for f in findings if f.fatal)
    assert v.message == f"line {first.line}: {first.message}"
    assert v.extra["findings"] == [f.to_json() for f in findings]
    assert all(f"line {f.line}: {f.code}" in v.extra["log"] for f in findings)


def test_a_cpu_fallback_is_unverifiable_on_the_cpu_only():
    findings = static.check(ANSWER.format(body="        if not x.is_cuda:\n            return torch.relu(x)\n"))
    assert [f.code for f in findings] == ["CPU_FALLBACK_NOTE"]
    assert rules.static_failure(findings) is None  # a note, not a failure
    notes = [f.to_json() for f in findings]
    v = rules.cpu_fallback(findings, "cpu", notes)
    assert (v.status, v.stage, v.reasons) == ("UNVERIFIABLE", "static", ["CPU_FALLBACK_ON_CPU"])
    assert v.message.startswith(f"line {findings[0].line}: ") and v.extra["findings"] is notes
    assert rules.cpu_fallback(findings, "cuda:0", notes) is None


def test_no_fallback_no_cpu_verdict():
    assert rules.cpu_fallback([static.Finding("TORCH_CORE_OP_ALLOWED", 3, "x", fatal=False)], "cpu", []) is None


# ---- one call's outputs -------------------------------------------------------------------------------
def test_mismatch_counts_values_and_names_the_tolerances():
    v = rules.mismatch(1, 3, result(mismatches=7, max_abs=0.5), 1e-3, 1e-2)
    assert (v.status, v.stage, v.reasons) == ("FAIL_MISMATCH", "correct", ["MISMATCH"])
    assert v.message == ("shape 1 seed 3: 7 values outside atol=0.001 rtol=0.01 (max abs 0.5), "
                         "0 NaN/inf mismatches")


def test_mismatch_of_nonfinite_values_only():
    v = rules.mismatch(0, 0, result(nonfinite=2, max_abs=float("nan")), 1e-3, 1e-3)
    assert v.reasons == ["MISMATCH", "NONFINITE_MISMATCH"]  # MISMATCH whatever the kind: the native path's
    assert "(max abs nan), 2 NaN/inf mismatches" in v.message


def test_a_check_failing_near_the_tolerance_is_made_again_only_then():
    near = dict(result(mismatches=3, max_abs=4e-4), max_rel=1.0)
    assert rules.near_tolerance(near, 1e-4, 1e-4)  # 4x atol
    assert rules.near_tolerance(dict(result(mismatches=3, max_abs=5.0), max_rel=5e-4), 1e-4, 1e-4)  # 5x rtol
    assert not rules.near_tolerance(dict(result(mismatches=3, max_abs=2e-3), max_rel=1.0), 1e-4, 1e-4)
    assert not rules.near_tolerance(dict(near, nonfinite_mismatches=1), 1e-4, 1e-4)  # NaN/inf: not near
    assert not rules.near_tolerance(dict(near, note="output 0 has shape [2], the reference [3]"), 1e-4, 1e-4)


def test_mismatch_of_both_kinds_names_both():
    assert rules.mismatch(0, 0, result(mismatches=1, nonfinite=1), 1, 1).reasons == ["MISMATCH", "NONFINITE_MISMATCH"]


def test_a_structural_mismatch_is_told_by_its_note():
    # a 0-d output where the reference has a vector: compare.compare notes the shape, counts nothing
    v = rules.mismatch(0, 2, result(note="output 0 has shape [], the reference [4]"), 1e-3, 1e-3)
    assert v.reasons == ["MISMATCH"]
    assert v.message == "shape 0 seed 2: output 0 has shape [], the reference [4]"


def test_a_timed_calls_mismatch_says_so():
    v = rules.mismatch(0, 1, result(mismatches=1), 1e-3, 1e-3, what="a timed call, ")
    assert v.message.startswith("a timed call, shape 0 seed 1: 1 values outside")


def test_a_matching_call_with_its_own_launches_passes():
    assert rules.checked_call(0, 0, result(ok=True), 1e-3, 1e-3, mutated=False, launches=2) is None
    assert rules.checked_call(0, 0, result(ok=True), 1e-3, 1e-3, mutated=None, launches=1) is None


def test_a_mismatch_is_named_before_mutated_inputs_and_missing_launches():
    v = rules.checked_call(1, 0, result(mismatches=3), 1e-3, 1e-3, mutated=True, launches=0)
    assert (v.status, v.reasons) == ("FAIL_MISMATCH", ["MISMATCH"])


def test_mutated_inputs_are_named_before_missing_launches():
    v = rules.checked_call(1, 0, result(ok=True), 1e-3, 1e-3, mutated=True, launches=0)
    assert (v.status, v.stage, v.reasons) == ("FAIL_MISMATCH", "correct", ["INPUT_MUTATED"])
    assert v.message == "shape 1 seed 0: the forward changed its inputs"


def test_matching_outputs_without_a_launch_are_a_sham():
    v = rules.checked_call(0, 4, result(ok=True), 1e-3, 1e-3, mutated=False, launches=0)
    assert (v.status, v.stage, v.reasons) == ("FAIL_SHAM", "proof", ["KERNEL_NOT_RUN"])


# ---- the job's end ------------------------------------------------------------------------------------
def test_the_harness_failing_is_a_harness_fault_not_a_verdict():
    v = rules.harness_failed("CUDA error: out of memory", "compile", 4, "log")
    assert (v.status, v.stage, v.reasons) == ("UNVERIFIABLE", "compile", ["DEVICE_UNAVAILABLE"])
    assert "(CUDA error: out of memory) in 4 attempts" in v.message and v.extra["log"] == "log"
    # the engine leaves the sample PENDING for a line marked so, with each attempt as the evidence
    assert v.extra["harness_fault"] == {"code": "DEVICE_UNAVAILABLE", "attempts": ["CUDA error: out of memory"] * 4}
    assert rules.MAX_INFRA_RETRIES == 3
    v = rules.harness_failed("OSError: mount", "compile", 4, "log", "SANDBOX_UNAVAILABLE")
    assert v.reasons == ["SANDBOX_UNAVAILABLE"] and "could not set up the candidate's sandbox" in v.message


def test_native_verification_without_a_result_crashed():
    v = rules.native_no_result(killed(signal.SIGSEGV), "correct", "")
    assert (v.status, v.stage, v.reasons) == ("CRASH", "correct", ["SIGNAL"])
    assert v.message == "native verification ended (signal SIGSEGV) without a result"
    assert "(exit status 4)" in rules.native_no_result(exited(4), "compile", "").message


def test_a_job_that_reported_done_is_not_decided_early():
    assert rules.ended_early(job(), exited(0), "") is None


def test_cancelled_comes_first():
    v = rules.ended_early(job(cancelled=True, timed_out=True, violations=[{"code": "EXEC", "detail": "d"}],
                              done=None), killed(signal.SIGKILL), "log")
    assert (v.status, v.reasons, v.message) == ("CANCELLED", [], "cancelled")


def test_a_sandbox_violation_beats_a_timeout_and_the_kill():
    vs = [{"code": "EXEC", "detail": "execve /bin/sh"}, {"code": "NETWORK", "detail": "connect"}]
    v = rules.ended_early(job(violations=vs, timed_out=True, done=None, stage="correct"), killed(signal.SIGKILL), "L")
    assert (v.status, v.stage, v.reasons) == ("FAIL_SANDBOX", "correct", ["EXEC", "NETWORK"])
    assert v.message == "the sample tried something the sandbox forbids: execve /bin/sh"
    assert v.extra["log"] == "execve /bin/sh\nconnect\nL"


def test_a_timeout_is_not_a_crash():
    # the worker killed it at its deadline: SIGKILL is the consequence, the timeout the verdict
    v = rules.ended_early(job(timed_out=True, done=None, stage="correct"), killed(signal.SIGKILL), "")
    assert (v.status, v.stage, v.reasons) == ("TIMEOUT", "correct", ["STAGE_TIMEOUT"])
    assert v.message == "the correct stage ran past its 60 s limit"


def test_a_timeout_in_a_stage_without_its_own_limit_names_the_default():
    v = rules.ended_early(job(timed_out=True, done=None, stage="queue"), killed(signal.SIGKILL), "")
    assert v.message == "the queue stage ran past its 120 s limit"


def test_a_failure_decided_while_running_beats_the_kill():
    failure = ("FAIL_MISMATCH", "correct", ["MISMATCH"], "shape 0 seed 1: 3 values outside ...")
    v = rules.ended_early(job(failure=failure, done=None), killed(signal.SIGKILL), "L")
    assert (v.status, v.stage, v.reasons, v.message) == failure and v.extra == {"log": "L"}


def test_the_childs_error_beats_its_exit():
    err = {"stage": "correct", "code": "OUT_OF_BOUNDS", "message": "load at 4096", "traceback": "TB"}
    v = rules.ended_early(job(error=err, done=None), exited(1), "L")
    assert (v.status, v.stage, v.reasons, v.message) == ("FAIL_RUNTIME", "correct", ["OUT_OF_BOUNDS"], "load at 4096")
    assert v.extra["log"] == "TB\nL"


def test_a_compile_error_is_in_the_compile_stage_wherever_it_was_reported():
    err = {"stage": "correct", "code": "COMPILE_ERROR", "message": "bad tl.dot"}
    v = rules.ended_early(job(error=err, done=None), exited(1), "L")
    assert (v.status, v.stage, v.reasons) == ("FAIL_COMPILE", "compile", ["COMPILE_ERROR"])
    assert v.extra["log"] == "\nL"  # no traceback


def test_a_write_the_sandbox_refused_is_reported_as_one():
    err = {"stage": "correct", "code": "SANDBOX", "message": "PermissionError: sieve sandbox"}
    v = rules.ended_early(job(error=err, done=None), exited(1), "")
    assert (v.status, v.stage, v.reasons) == ("FAIL_SANDBOX", "correct", ["WRITE_OUTSIDE_SCRATCH"])


def test_a_cpu_limit_is_a_timeout():
    v = rules.ended_early(job(done=None, stage="compile"), killed(signal.SIGXCPU), "")
    assert (v.status, v.stage, v.reasons, v.message) == ("TIMEOUT", "compile", ["STAGE_TIMEOUT"],
                                                         "CPU time limit reached")


def test_a_file_size_limit_is_a_sandbox_failure():
    v = rules.ended_early(job(done=None), killed(signal.SIGXFSZ), "")
    assert (v.status, v.reasons) == ("FAIL_SANDBOX", ["WRITE_OUTSIDE_SCRATCH"])


def test_death_by_another_signal_is_a_crash():
    v = rules.ended_early(job(done=None, stage="correct"), killed(signal.SIGSEGV), "L")
    assert (v.status, v.stage, v.reasons) == ("CRASH", "correct", ["SIGNAL"])
    assert v.message == "the candidate process died from signal SIGSEGV in the correct stage"


def test_an_exit_without_a_result_is_a_crash():
    v = rules.ended_early(job(done=None, stage="compile"), exited(3), "")
    assert (v.status, v.reasons, v.message) == ("CRASH", ["SIGNAL"], "the candidate process exited (3) without a result")


def test_a_proven_job_is_not_unproven():
    assert rules.unproven(job(), "") is None


def test_missing_checks_fail_the_runtime_stage():
    v = rules.unproven(job(seen={(0, 0)}, checks=[{}], stage="correct"), "")
    assert (v.status, v.stage, v.reasons) == ("FAIL_RUNTIME", "correct", ["RUNTIME_ERROR"])
    assert v.message == "only 1 of 4 checks came back"


def test_missing_checks_are_named_before_missing_launches_and_probe():
    assert rules.unproven(job(seen=set(), launches=0, probe=None), "").reasons == ["RUNTIME_ERROR"]


def test_no_launch_of_its_own_kernels_is_a_sham_before_the_probe():
    v = rules.unproven(job(launches=0, probe=None), "")
    assert (v.status, v.stage, v.reasons) == ("FAIL_SHAM", "proof", ["KERNEL_NOT_RUN"])


def test_a_probe_that_did_not_run_is_a_sham():
    for probe in (None, "sham"):
        v = rules.unproven(job(probe=probe), "")
        assert (v.status, v.stage, v.reasons) == ("FAIL_SHAM", "proof", ["OUTPUT_NOT_FROM_KERNEL"])


def test_an_untimed_pass_on_the_cpu():
    v = rules.passed(job(), "L", "", "cpu")
    assert (v.status, v.stage, v.reasons) == ("PASS", "proof", [])
    assert v.message == ("matches the reference on 4 shape/seed checks; 5 launches of its own kernels "
                         "(CPU-interpreted, not timed)")
    assert v.extra == {"log": "L", "speedup": None, "flags": [], "kernels": ["k"]}
    assert list(v.extra) == ["log", "speedup", "flags", "kernels"]  # the verdict line's field order


def timings(cand_ms, eager_ms):
    return [{"which": "candidate", "median_ms": cand_ms}, {"which": "eager", "median_ms": eager_ms}]


def test_a_timed_pass_has_its_speedup():
    v = rules.passed(job(timings=timings(0.5, 1.0)), "", "NVIDIA H200", "cuda:0")
    assert (v.status, v.stage) == ("PASS", "timing")
    assert v.extra["speedup"] == 2.0 and v.extra["flags"] == []
    assert not v.message.endswith("(CPU-interpreted, not timed)")


def test_a_speedup_over_10x_is_flagged_not_failed():
    v = rules.passed(job(timings=timings(0.05, 1.0)), "", "NVIDIA H200", "cuda:0")
    assert v.status == "PASS" and v.extra["flags"] == ["SPEEDUP_OVER_10X"]


def test_a_zero_median_has_no_speedup():
    v = rules.passed(job(timings=timings(0.0, 1.0)), "", "NVIDIA H200", "cuda:0")
    assert v.extra["speedup"] is None and v.extra["flags"] == []


def test_below_the_memory_roofline_is_a_sham():
    # 4.8e9 bytes at the H200's 4.8 TB/s take at least 1 ms
    v = rules.passed(job(timings=timings(0.5, 1.0), bytes_moved=4_800_000_000), "L", "NVIDIA H200", "cuda:0")
    assert (v.status, v.stage, v.reasons) == ("FAIL_SHAM", "timing", ["BELOW_ROOFLINE"])
    assert v.message == "0.5000 ms is below the memory roofline floor 1.0000 ms for 4800000000 bytes"
    assert v.extra["roofline_floor_ms"] == 1.0 and v.extra["speedup"] == 2.0
    assert list(v.extra) == ["log", "speedup", "flags", "kernels", "roofline_floor_ms"]


def test_above_the_roofline_passes_and_reports_the_floor():
    v = rules.passed(job(timings=timings(2.0, 1.0), bytes_moved=4_800_000_000), "", "NVIDIA H200", "cuda:0")
    assert v.status == "PASS" and v.extra["roofline_floor_ms"] == 1.0


def test_an_unknown_gpu_gets_a_generous_peak():
    # 8 TB/s: 4.8e9 bytes take 0.6 ms, so 0.7 ms passes where an H200's floor (1 ms) would fail it
    v = rules.passed(job(timings=timings(0.7, 1.0), bytes_moved=4_800_000_000), "", "Some Future GPU", "cuda:0")
    assert v.status == "PASS" and abs(v.extra["roofline_floor_ms"] - 0.6) < 1e-12


def test_no_roofline_without_a_candidate_timing():
    v = rules.passed(job(timings=[{"which": "eager", "median_ms": 1.0}], bytes_moved=10 ** 12), "", "H100", "cuda:0")
    assert v.status == "PASS" and "roofline_floor_ms" not in v.extra and v.extra["speedup"] is None


# ---- a stage out of time: the sample's slowness or the machine's load (issue 31 point 3) ---------------------
def test_a_stage_that_had_its_cpu_is_the_samples_timeout():
    load = rules.stage_load(10.0, (1.0, 0.5), (10.2, 1.0), alone=False, beside=3)
    assert not load["loaded"] and load["run_s"] == 9.2 and load["wait_s"] == 0.5
    assert "on a CPU 9.2 s and waiting for one 0.5 s of its 10.0 s, beside 3 other jobs" == load["evidence"]


def test_a_stage_that_waited_for_a_cpu_was_stopped_by_load():
    load = rules.stage_load(10.0, (1.0, 0.5), (2.0, 8.5), alone=True, beside=0)
    assert load["loaded"] and load["wait_s"] == 8.0 and load["evidence"].endswith(", alone")
    # twice oversubscribed (half the stage waiting) is not load enough: the sample had half a CPU
    assert not rules.stage_load(10.0, (0.0, 0.0), (5.0, 5.0), alone=False, beside=3)["loaded"]
    # a sleeper (neither on a CPU nor waiting for one) is slow by its own doing
    assert not rules.stage_load(10.0, (1.0, 0.5), (1.1, 0.6), alone=False, beside=2)["loaded"]


def test_without_schedstat_only_a_stage_beside_others_counts_as_loaded():
    assert rules.stage_load(10.0, None, None, alone=False, beside=2)["loaded"]
    assert not rules.stage_load(10.0, None, None, alone=True, beside=0)["loaded"]
    assert not rules.stage_load(10.0, None, (1.0, 2.0), alone=False, beside=0)["loaded"]


def test_a_timeout_after_a_loaded_attempt_names_both():
    job = types.SimpleNamespace(cancelled=False, violations=[], oom_killed=False, timed_out=True, stage="correct",
                                timeouts={"correct": 8}, load={"loaded": False, "evidence": "on a CPU 7.9 s"},
                                load_faults=["attempt 1: the correct stage ran past its 8 s limit, waiting 6 s"])
    v = rules.ended_early(job, 0, "log")
    assert (v.status, v.reasons) == ("TIMEOUT", ["STAGE_TIMEOUT"])
    assert v.message == ("the correct stage ran past its 8 s limit (on a CPU 7.9 s); earlier attempts ran out of "
                         "time under load: attempt 1: the correct stage ran past its 8 s limit, waiting 6 s")
