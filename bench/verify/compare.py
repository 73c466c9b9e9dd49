#!/usr/bin/env python3
"""Compares one benchmark run of Sieve and of the KernelBench-style baseline on the same samples.

    python3 compare.py OUT_DIR

reads OUT_DIR/{samples.jsonl, sieve.jsonl, baseline.jsonl, corpus.db, times.json, sieve_smi.csv,
baseline_smi.csv} (written by run.sh) and prints samples/min for each, their ratio, the verdict agreement
(Sieve PASS <=> baseline correct) with every disagreement listed, and the share of wall time the GPU was
busy: measured by nvidia-smi sampling (utilization.gpu every 100 ms) and, as a lower bound, the sum of the
timed kernel runs each tool reported (runs x mean for Sieve's verdict_timings; 100-trial totals for the
baseline) over its wall time. A JSON summary goes to OUT_DIR/summary.json.
"""
import collections
import json
import os
import sqlite3
import statistics
import sys


def lines(path):
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip()]


def smi_mean(path):
    vals = []
    if os.path.exists(path):
        for l in open(path):
            parts = [p.strip() for p in l.split(",")]
            try:
                vals.append(float(parts[-1].split()[0]))
            except (ValueError, IndexError):
                pass
    return (statistics.mean(vals), len(vals)) if vals else (None, 0)


PHASES = [("wait", "stage 0 and admission"), ("start", "process start (zygote fork, sandbox)"),
          ("context", "CUDA context and the task"), ("compile", "the answer's import"),
          ("first_call", "first call (Triton compiles here)"), ("checks", "other checks"), ("probe", "proof probe"),
          ("compare", "the worker comparing outputs"), ("share", "GPU-share measurement"),
          ("queue", "waiting for the timing lock"), ("timing", "timing"), ("exit", "process exit"),
          ("ref_timing_wait", "verdict waiting for the task's reference timing (after exit)"),
          ("wall", "the runtime wall's own cost, inside the calls above (not added to the total)")]


def phase_lines(rows):
    """The per-stage breakdown of where candidates' time went: per phase, the median over the samples that
    reached it and its share of the summed total (from the verdicts' `phases`, the worker's clock)."""
    rows = [r["phases"] for r in rows if isinstance(r.get("phases"), dict)]
    if not rows:
        return ["  (no verdict carries phases)"]
    total = sum(r.get("total", 0) for r in rows)
    out = [f"  {len(rows)} samples through a child; per sample total median "
           f"{statistics.median(r.get('total', 0) for r in rows):.2f} s, sum {total:.1f} s"]
    for key, what in PHASES:
        vals = [r[key] for r in rows if isinstance(r.get(key), (int, float))]
        if vals:
            out.append(f"  {key:<10} median {statistics.median(vals):7.3f} s  sum {sum(vals):8.1f} s "
                       f"({100 * sum(vals) / total if total else 0:4.1f}%)  {what}")
    return out


def main():
    out = sys.argv[1]
    samples = lines(os.path.join(out, "samples.jsonl"))
    times = json.load(open(os.path.join(out, "times.json")))
    sieve_rows = [r for r in lines(os.path.join(out, "sieve.jsonl")) if "status" in r]
    sieve = {r["sample"]: r for r in sieve_rows}
    base = {r["sample"]: r for r in lines(os.path.join(out, "baseline.jsonl"))}
    n = len(samples)
    s_wall, b_wall = times["sieve_wall_s"], times["baseline_wall_s"]
    s_rate, b_rate = 60 * len(sieve) / s_wall, 60 * len(base) / b_wall

    agree, disagree, compared = 0, [], 0
    for s in samples:
        v, b = sieve.get(s["sample"]), base.get(s["sample"])
        if not b:
            continue  # the baseline ran out of its time budget before this sample
        compared += 1
        if not v:
            disagree.append((s["name"], None, b["status"], "no Sieve verdict"))
            continue
        if (v["status"] == "PASS") == (b["status"] == "PASS"):
            agree += 1
        else:
            disagree.append((s["name"], v["status"] + " " + ",".join(v.get("reasons") or []), b["status"],
                             (v.get("message") or "")[:160]))
    intended = sum(1 for s in samples if s["intended_correct"])
    sieve_pass = sum(1 for v in sieve.values() if v["status"] == "PASS")
    base_pass = sum(1 for b in base.values() if b["status"] == "PASS")
    wrong_sieve = [s["name"] for s in samples if sieve.get(s["sample"]) and
                   (sieve[s["sample"]]["status"] == "PASS") != s["intended_correct"]]

    db = sqlite3.connect(os.path.join(out, "corpus.db"))
    run_id = db.execute("SELECT max(id) FROM verify_runs").fetchone()[0]
    timed_ms = db.execute("SELECT coalesce(sum(t.runs * t.mean_ms), 0) FROM verdict_timings t JOIN verdicts v "
                          "ON v.id = t.verdict_id WHERE v.run_id = ?", (run_id,)).fetchone()[0]
    durations = [r[0] for r in db.execute("SELECT duration_ms FROM verdicts WHERE run_id=? AND duration_ms IS NOT NULL",
                                          (run_id,))]
    by_status = collections.Counter(v["status"] for v in sieve.values())
    env = json.loads(db.execute("SELECT env_json FROM verify_runs WHERE id=?", (run_id,)).fetchone()[0] or "{}")
    params = json.loads(db.execute("SELECT params_json FROM verify_runs WHERE id=?", (run_id,)).fetchone()[0] or "{}")
    b_timed_ms = sum(b.get("timed_gpu_ms", 0) for b in base.values())
    b_import = [b["import_s"] for b in base.values() if "import_s" in b]
    s_smi, s_smi_n = smi_mean(os.path.join(out, "sieve_smi.csv"))
    b_smi, b_smi_n = smi_mean(os.path.join(out, "baseline_smi.csv"))
    parallel = params.get("parallel", 1)
    first = db.execute("SELECT min(v.created_at) - r.started_at FROM verdicts v JOIN verify_runs r ON r.id = v.run_id "
                       "WHERE v.run_id = ?", (run_id,)).fetchone()[0]

    print(f"samples: {n} over {len({s['task'] for s in samples})} tasks; intended correct {intended}")
    print(f"GPU: {env.get('gpu')}  driver {env.get('driver')}  torch {env.get('torch')}  triton {env.get('triton')}")
    print(f"sieve:    {len(sieve)} verdicts in {s_wall:.1f} s = {s_rate:.1f} samples/min  "
          f"(PASS {sieve_pass}; {dict(by_status)})")
    print(f"baseline: {len(base)} verdicts in {b_wall:.1f} s = {b_rate:.1f} samples/min  (PASS {base_pass}); "
          f"median import torch in the child {statistics.median(b_import) if b_import else float('nan'):.2f} s")
    print(f"ratio (sieve / baseline samples per minute): {s_rate / b_rate:.1f}x")
    print(f"verdict agreement (PASS vs not): {agree}/{compared} samples both verified"
          + ("" if compared == n else f" (the baseline covered {compared} of {n} within its time budget)"))
    for d in disagree:
        print(f"  disagree: {d[0]}: sieve {d[1]} | baseline {d[2]} | {d[3]}")
    print(f"sieve verdicts that differ from the generator's intent: {len(wrong_sieve)} {wrong_sieve[:10]}")
    print("GPU busy share of wall time:")
    print(f"  sieve:    nvidia-smi utilization mean {s_smi if s_smi is None else round(s_smi, 1)}% over {s_smi_n} samples; "
          f"timed kernel runs {timed_ms / 1000:.2f} s = {100 * timed_ms / 1000 / s_wall:.1f}% of wall")
    print(f"  baseline: nvidia-smi utilization mean {b_smi if b_smi is None else round(b_smi, 1)}% over {b_smi_n} samples; "
          f"timed kernel runs {b_timed_ms / 1000:.2f} s = {100 * b_timed_ms / 1000 / b_wall:.1f}% of wall")
    if durations:
        busy_slots = sum(durations) / 1000 / (s_wall * parallel)
        print(f"  sieve where the time went: per-sample child time median {statistics.median(durations):.0f} ms, "
              f"sum {sum(durations) / 1000:.1f} s = {100 * busy_slots:.0f}% of {parallel} worker slots x wall; "
              f"worker start + references: first verdict written {first} s after the run started")
    print("per-stage breakdown of the candidates' time (seconds, worker's clock):")
    for line in phase_lines(sieve_rows):
        print(line)
    summary = {"samples": n, "sieve_wall_s": s_wall, "baseline_wall_s": b_wall, "sieve_samples_per_min": s_rate,
               "baseline_samples_per_min": b_rate, "ratio": s_rate / b_rate, "agreement": agree, "compared": compared,
               "disagreements": disagree, "sieve_by_status": by_status, "sieve_pass": sieve_pass,
               "baseline_pass": base_pass, "sieve_gpu_util_mean": s_smi, "baseline_gpu_util_mean": b_smi,
               "sieve_timed_kernel_share": timed_ms / 1000 / s_wall, "baseline_timed_kernel_share": b_timed_ms / 1000 / b_wall,
               "env": env}
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1, default=str)


if __name__ == "__main__":
    main()
