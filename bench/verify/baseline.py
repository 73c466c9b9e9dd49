#!/usr/bin/env python3
"""A KernelBench-style verifier, the baseline Sieve is measured against.

For every sample it spawns a fresh Python process (as KernelBench's eval scripts do) that imports torch,
builds the reference Model and the candidate ModelNew (state copied from Model, as Sieve does), runs 5
correctness trials (fresh seeded inputs, torch.allclose at atol = rtol = 1e-4 for fp32) and, when all
pass, 100 timed trials of the candidate and of the reference with CUDA events (3 warm-up calls first).
No sandbox, no static checks, no proof of work: that is the point of the comparison.

    python3 baseline.py SAMPLES.jsonl RESULTS.jsonl [--device cuda:0] [--timeout 300] [--budget-s S]

With --budget-s it starts no new sample after S seconds (a machine that allows 10 minutes per command
cannot run 200 fresh processes of ~8 s each); samples are visited in a stride order (i * 7 mod n) so that
any prefix mixes tasks and correct/buggy variants, and the rate is measured over the samples it did.
    python3 baseline.py --one TASK.py ANSWER.py --device cuda:0      (the per-sample child)
"""
import argparse
import json
import os
import subprocess
import sys
import time


def child(task_path, answer_path, device, atol, rtol):
    t0 = time.monotonic()
    import importlib.util
    import torch

    res = {"import_s": time.monotonic() - t0}

    def load(path, name):
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod

    try:
        task = load(task_path, "task_module")
        torch.manual_seed(42)
        ref = task.Model(*task.get_init_inputs()).to(device)
    except Exception as e:  # the task itself is broken
        return {**res, "status": "TASK_ERROR", "error": f"{type(e).__name__}: {e}"}
    try:
        ans = load(answer_path, "answer_module")
        torch.manual_seed(42)
        new = ans.ModelNew(*task.get_init_inputs()).to(device)
        new.load_state_dict(ref.state_dict(), strict=False)
    except Exception as e:
        return {**res, "status": "COMPILE_ERROR", "error": f"{type(e).__name__}: {e}"}
    max_abs = 0.0
    with torch.no_grad():
        for trial in range(5):
            torch.manual_seed(1000 + trial)
            inputs = [x.to(device) if isinstance(x, torch.Tensor) else x for x in task.get_inputs()]
            try:
                expected = ref(*inputs)
                got = new(*inputs)
                torch.cuda.synchronize(device)
            except Exception as e:
                return {**res, "status": "RUNTIME_ERROR", "error": f"{type(e).__name__}: {e}", "trial": trial}
            if got.shape != expected.shape:
                return {**res, "status": "MISMATCH", "error": f"shape {tuple(got.shape)} != {tuple(expected.shape)}"}
            diff = (got.float() - expected.float()).abs()
            max_abs = max(max_abs, float(diff.max()) if diff.numel() else 0.0)
            if not torch.allclose(got.float(), expected.float(), atol=atol, rtol=rtol):
                return {**res, "status": "MISMATCH", "max_abs": max_abs, "trial": trial}
        res["correct_s"] = time.monotonic() - t0 - res["import_s"]

        def timed(model):
            for _ in range(3):
                model(*inputs)
            torch.cuda.synchronize(device)
            times = []
            for _ in range(100):
                start = torch.cuda.Event(enable_timing=True)
                end = torch.cuda.Event(enable_timing=True)
                start.record()
                model(*inputs)
                end.record()
                torch.cuda.synchronize(device)
                times.append(start.elapsed_time(end))
            times.sort()
            return times[len(times) // 2], sum(times)

        cand_ms, cand_total = timed(new)
        ref_ms, ref_total = timed(ref)
    return {**res, "status": "PASS", "max_abs": max_abs, "candidate_ms": cand_ms, "reference_ms": ref_ms,
            "speedup": ref_ms / cand_ms if cand_ms > 0 else None, "timed_gpu_ms": cand_total + ref_total,
            "total_s": time.monotonic() - t0}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("paths", nargs="*")
    ap.add_argument("--one", action="store_true")
    ap.add_argument("--device", default="cuda:0")
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--atol", type=float, default=1e-4)
    ap.add_argument("--rtol", type=float, default=1e-4)
    ap.add_argument("--budget-s", type=float, default=0, help="start no new sample after this many seconds (0: none)")
    args = ap.parse_args()
    if args.one:
        out = child(args.paths[0], args.paths[1], args.device, args.atol, args.rtol)
        sys.stdout.write("BASELINE_RESULT " + json.dumps(out) + "\n")
        return 0
    samples_path, results_path = args.paths
    samples = [json.loads(l) for l in open(samples_path) if l.strip()]
    # A missing problem or answer file is the benchmark's fault, not a result: every sample would be a
    # TASK_ERROR in a second each, and its rate would pass for the baseline's throughput.
    missing = [f for s in samples for f in (s["task_file"], s["answer_file"]) if not os.path.isfile(f)]
    if missing:
        print(f"baseline: {len(missing)} problem/answer files are missing, e.g. {missing[0]} "
              f"(build the corpus again: kb_run.sh with PHASE=build)", file=sys.stderr)
        return 2
    n = len(samples)
    stride = next(k for k in (7, 11, 13, 17, 1) if n % k or k == 1)  # coprime with n: visits every sample
    order = [samples[(i * stride) % n] for i in range(n)] if n else []
    t0 = time.monotonic()
    done = 0
    with open(results_path, "w") as out:
        for i, s in enumerate(order):
            if args.budget_s and time.monotonic() - t0 > args.budget_s:
                break
            ts = time.monotonic()
            try:
                p = subprocess.run([sys.executable, os.path.abspath(__file__), "--one", s["task_file"], s["answer_file"],
                                    "--device", args.device, "--atol", str(args.atol), "--rtol", str(args.rtol)],
                                   capture_output=True, text=True, timeout=args.timeout)
                line = next((l for l in p.stdout.splitlines() if l.startswith("BASELINE_RESULT ")), None)
                r = json.loads(line[len("BASELINE_RESULT "):]) if line else {
                    "status": "CRASH", "error": f"exit {p.returncode}: {p.stderr[-500:]}"}
            except subprocess.TimeoutExpired:
                r = {"status": "TIMEOUT"}
            r.update(sample=s["sample"], name=s["name"], wall_s=time.monotonic() - ts)
            out.write(json.dumps(r) + "\n")
            out.flush()
            done += 1
            if (i + 1) % 20 == 0:
                el = time.monotonic() - t0
                print(f"baseline: {i + 1}/{len(samples)} in {el:.0f} s ({60 * (i + 1) / el:.1f} samples/min)",
                      file=sys.stderr, flush=True)
    wall = time.monotonic() - t0
    print(json.dumps({"baseline_wall_s": wall, "samples": done, "of": n, "samples_per_min": 60 * done / wall}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
