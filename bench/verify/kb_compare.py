#!/usr/bin/env python3
"""Report of one real-problem benchmark run (kb_run.sh): throughput of Sieve and of the KernelBench-style
baseline and their ratio, peak host and GPU memory of each, Sieve's verdicts by the answers' intent,
every disagreement (Sieve PASS <=> baseline PASS) on one line with Sieve's reasons, the KernelBench
example answers against the verdicts a person gives them (kb_prompt_verdicts.json), CRASH verdicts and
REF_TOO_LARGE tasks. A JSON summary goes to OUT_DIR/summary.json.

    python3 kb_compare.py OUT_DIR
"""
import collections
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import phase_lines  # noqa: E402


def lines(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip()]


def peak(path, col):
    best = None
    if os.path.exists(path):
        for l in open(path):
            parts = [p.strip() for p in l.split(",")]
            try:
                v = float(parts[col].split()[0])
            except (ValueError, IndexError):
                continue
            best = v if best is None else max(best, v)
    return best


def load_time(out, name, key):
    p = os.path.join(out, name)
    return json.load(open(p))[key] if os.path.exists(p) else None


def explain(v):
    """Why Sieve did not pass what the baseline passed, in the words of its reasons."""
    r = set(v.get("reasons") or [])
    if r & {"TORCH_OP_IN_FORWARD", "TORCH_CORE_OP"}:
        return "torch op in forward (strict policy)"
    if r & {"REF_BELOW_TOL", "REF_CONSTANT", "REF_NONDETERMINISTIC", "REF_NONFINITE", "REF_FAILED", "REF_TOO_LARGE",
            "TASK_IMPORT_MISSING", "REF_UNJUDGED_AT_SCALE"}:
        return "task hygiene: " + ",".join(sorted(r))
    if r & {"KERNEL_NOT_RUN", "OUTPUT_NOT_FROM_KERNEL", "BELOW_ROOFLINE"}:
        return "proof of work"
    if "MISMATCH" in r:
        return "mismatch (precision or a seed/shape the baseline does not check)"
    return "other: " + ",".join(sorted(r))


def main():
    out = sys.argv[1]
    samples = lines(os.path.join(out, "samples.jsonl"))
    by_name = {s["name"]: s for s in samples}
    sieve = {r["name"]: r for r in lines(os.path.join(out, "sieve.jsonl")) if "status" in r}
    summary_rows = [r["summary"] for r in lines(os.path.join(out, "sieve.jsonl")) if "summary" in r]
    base = {r["name"]: r for r in lines(os.path.join(out, "baseline.jsonl"))}
    s_wall = load_time(out, "sieve_time.json", "sieve_wall_s")
    b_wall = load_time(out, "baseline_time.json", "baseline_wall_s")
    s_rate = 60 * len(sieve) / s_wall if s_wall else None
    b_rate = 60 * len(base) / b_wall if b_wall else None
    res = {"samples": len(samples), "sieve_verdicts": len(sieve), "baseline_results": len(base),
           "sieve_wall_s": s_wall, "baseline_wall_s": b_wall, "sieve_samples_per_min": s_rate,
           "baseline_samples_per_min": b_rate, "throughput_ratio": s_rate / b_rate if s_rate and b_rate else None,
           "peak_host_mib": {"sieve": peak(os.path.join(out, "sieve_host_mem.csv"), 1),
                             "baseline": peak(os.path.join(out, "baseline_host_mem.csv"), 1)},
           "peak_gpu_mib": {"sieve": peak(os.path.join(out, "sieve_gpu_mem.csv"), 1),
                            "baseline": peak(os.path.join(out, "baseline_gpu_mem.csv"), 1)},
           "sieve_summary": summary_rows[-1] if summary_rows else None}
    print(f"samples {len(samples)}: Sieve verdicts {len(sieve)}, baseline results {len(base)}")
    if s_rate:
        print(f"Sieve    {s_wall:8.1f} s  {s_rate:7.1f} samples/min  peak host {res['peak_host_mib']['sieve']} MiB, "
              f"peak GPU {res['peak_gpu_mib']['sieve']} MiB")
    if b_rate:
        print(f"baseline {b_wall:8.1f} s  {b_rate:7.1f} samples/min  peak host {res['peak_host_mib']['baseline']} MiB, "
              f"peak GPU {res['peak_gpu_mib']['baseline']} MiB")
    if res["throughput_ratio"]:
        print(f"throughput ratio Sieve/baseline: {res['throughput_ratio']:.1f}x")

    table = collections.defaultdict(collections.Counter)
    for name, v in sieve.items():
        table[by_name.get(name, {}).get("intended", "?")][v["status"]] += 1
    print("\nSieve verdicts by intent:")
    for intent, c in sorted(table.items()):
        print(f"  {intent:<20} " + ", ".join(f"{k} {n}" for k, n in c.most_common()))
    res["sieve_by_intent"] = {k: dict(v) for k, v in table.items()}
    btable = collections.defaultdict(collections.Counter)
    for name, b in base.items():
        btable[by_name.get(name, {}).get("intended", "?")][b["status"]] += 1
    print("baseline results by intent:")
    for intent, c in sorted(btable.items()):
        print(f"  {intent:<20} " + ", ".join(f"{k} {n}" for k, n in c.most_common()))
    res["baseline_by_intent"] = {k: dict(v) for k, v in btable.items()}

    crashes = [n for n, v in sieve.items() if v["status"] == "CRASH"]
    too_large = sorted({by_name.get(n, {}).get("task", "?") for n, v in sieve.items()
                        if "REF_TOO_LARGE" in (v.get("reasons") or [])})
    print(f"\nCRASH verdicts: {len(crashes)}" + "".join(f"\n  {n}: {sieve[n].get('message', '')[:160]}" for n in crashes))
    print(f"tasks REF_TOO_LARGE: {len(too_large)}" + "".join(f"\n  {t}" for t in too_large))
    res["crash"] = crashes
    res["ref_too_large_tasks"] = too_large

    dis = []
    compared = agree = 0
    for name, b in base.items():
        v = sieve.get(name)
        if v is None:
            continue
        compared += 1
        if (v["status"] == "PASS") == (b["status"] == "PASS"):
            agree += 1
            continue
        why = explain(v) if b["status"] == "PASS" else f"baseline {b['status']}: {str(b.get('error', ''))[:100]}"
        dis.append(f"{name} [{by_name.get(name, {}).get('intended', '?')}]: Sieve {v['status']} "
                   f"{','.join(v.get('reasons') or [])} / baseline {b['status']} -- {why}")
    print(f"\nagreement on {compared} samples both verified: {agree} ({100 * agree / compared:.1f}%)" if compared else
          "\nno sample verified by both")
    print(f"disagreements ({len(dis)}):" + "".join("\n  " + d for d in dis))
    print("\nper-stage breakdown of the candidates' time (seconds, worker's clock):")
    for line in phase_lines(list(sieve.values())):
        print(line)
    res["agreement"] = {"compared": compared, "agree": agree, "disagreements": dis}

    ex = []
    for s in samples:
        if "expect" not in s:
            continue
        v = sieve.get(s["name"])
        exp = s["expect"]
        statuses = exp["expect"] if isinstance(exp["expect"], list) else [exp["expect"]]
        if v is None:
            ex.append(("MISSING", s["name"], "no Sieve verdict", exp))
            continue
        ok = v["status"] in statuses and (not exp.get("reasons") or set(exp["reasons"]) & set(v.get("reasons") or []))
        ex.append(("ok " if ok else "BAD", s["name"], f"{v['status']} {','.join(v.get('reasons') or [])}", exp))
    for s in lines(os.path.join(out, "samples_not_imported.jsonl")):
        if "expect" in s:
            exp = s["expect"]
            statuses = exp["expect"] if isinstance(exp["expect"], list) else [exp["expect"]]
            # refused at import (or the same code as another sample): right when a person says "not PASS"
            ex.append(("ok " if "PASS" not in statuses else "BAD", s["name"], "not imported (see import.txt)", exp))
    if ex:
        print(f"\nKernelBench example answers ({sum(e[0] == 'ok ' for e in ex)}/{len(ex)} as a person judges them):")
        for mark, name, got, exp in ex:
            want = "/".join(exp["expect"] if isinstance(exp["expect"], list) else [exp["expect"]])
            print(f"  {mark} {name}: Sieve {got}; expected {want} ({exp.get('why', '')})")
    res["kernelbench_examples"] = [{"ok": e[0] == "ok ", "name": e[1], "sieve": e[2]} for e in ex]
    json.dump(res, open(os.path.join(out, "summary.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
