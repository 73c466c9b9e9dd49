#!/usr/bin/env python3
"""KernelBench's verdict against Sieve's on real model answers (issue 31.5), as Markdown:

  1. the answers KernelBench's check counted correct that Sieve does not pass, each with Sieve's status,
     reason codes, the first finding, and the reason in plain words a person can check against the answer;
  2. the answers Sieve passes that KernelBench's check counted incorrect;

plus the counts behind both. The answers and KernelBench's recorded verdicts come from real_answers.py's
OUT/answers.jsonl; Sieve's verdicts from one or more files of JSON lines with "name", "status", "reasons",
"message": the sieve.jsonl of `sieve-cli verify --json` and/or stage0_dir.py --jsonl (its lines carry
"policy"; only --policy's are read, and the other policy's status is shown beside it). A later file wins for
the same answer, so give stage 0's first and the GPU run's after it. A verdict's name is the sample's name
(answers.jsonl "name") or its answer file's stem.

    python3 real_table.py OUT --verdicts OUT/stage0.jsonl [GPU/sieve.jsonl] [--policy strict]
                          [--notes NOTES.json] [--max-rows N]

NOTES.json maps an answer's name to a note of one's own (what a person found reading it); it fills the
table's last column. Pure standard library.
"""
import argparse
import collections
import json
import os
import sys

# Reason codes in the order that names an answer's failure best (the first one present is the reason
# shown), each with what it means in words a person can check against the answer. Reviewed by reading
# answers that carry each code (bench/RESULTS.md, "Real answers: KernelBench's verdict against Sieve's").
REASONS = [
    ("PARSE_ERROR", "not valid Python: the answer is cut off or has prose inside the code"),
    ("NO_MODELNEW", "no ModelNew class: the answer is cut off before it or never writes one"),
    ("NO_KERNEL", "defines no kernel of its own"),
    ("FORBIDDEN_IMPORT", "imports a module outside the allowlist (torch._inductor, os, ...): not training data"),
    ("FORBIDDEN_ATTR", "reaches torch/triton internals (torch._C, torch._inductor, triton.runtime)"),
    ("PATCHES_HARNESS", "changes the harness or torch from inside the answer"),
    ("PATCHES_TORCH", "changes torch from inside the answer"),
    ("PATCHES_TIMER", "changes the timers"),
    ("DYNAMIC_CODE", "builds code at run time (exec/eval/compile)"),
    ("FORBIDDEN_CALL", "calls something verification forbids (torch.compile, private APIs, files, processes)"),
    ("FORBIDDEN_BASE", "ModelNew derives from something other than nn.Module (e.g. the reference Model)"),
    ("NO_LAUNCH", "forward never launches the answer's kernel"),
    ("TORCH_CORE_OP", "torch computes the conv/GEMM itself, the answer's kernel only the rest (--policy "
                      "kernelbench allows it beside a kernel of its own)"),
    ("TORCH_OP_IN_FORWARD", "torch computes part of the forward"),
    ("GHOST_BRANCH", "a branch of forward the GPU can take computes with torch instead of the kernel"),
    ("STREAMS", "launches work on its own CUDA stream"),
    ("THREADS", "starts threads"),
    ("CUDA_GRAPHS", "replays a CUDA graph"),
    ("TRY_EXCEPT_FALLBACK", "falls back to torch when the kernel raises"),
    ("CACHING", "keeps state across calls (cached outputs or tensors, mutated containers)"),
    ("UNRESOLVED_CALL", "calls something that cannot run as written (tl.* on the host, a name never defined)"),
    ("UNRESOLVED_VALUE", "uses a value stage 0 cannot resolve (a name never defined, or computed data)"),
    ("UNSUPPORTED_SYNTAX", "uses syntax stage 0 does not follow (generators, async, match)"),
    ("EXTENSION_FLAGS", "passes compiler or linker flags load_inline is not allowed"),
    ("EXTENSION_SOURCE", "its C++/CUDA source does what the verifier forbids"),
    ("INCLUDE_FORBIDDEN", "its C++/CUDA source includes a forbidden header"),
    ("COMPILE_ERROR", "does not build"),
    ("STAGE_TIMEOUT", "ran past the stage's time limit"),
    ("TIMEOUT", "ran past the time limit"),
    ("OUT_OF_BOUNDS", "reads or writes outside its tensors"),
    ("ILLEGAL_ADDRESS", "reads or writes outside its tensors"),
    ("RUNTIME_ERROR", "raises when run"),
    ("INPUT_MUTATED", "writes into its inputs"),
    ("KERNEL_NOT_RUN", "its kernel never runs when forward is called"),
    ("OUTPUT_NOT_FROM_KERNEL", "its output does not come from its kernel"),
    ("BELOW_ROOFLINE", "faster than the hardware allows: the work is not being done"),
    ("NONFINITE_MISMATCH", "NaN/inf where the reference has numbers (or the other way)"),
    ("MISMATCH", "wrong values on an input set or shape Sieve tries (its message names which)"),
]
# Finer words for a TORCH_OP_IN_FORWARD finding, by what its message says (first match wins).
REFINE = [
    ("copies or casts a tensor in torch (.contiguous", "torch copies a reordered view (a transpose or permute made "
                                                       "contiguous): the reordering is torch's work"),
    ("copies or casts a tensor in torch", "torch casts or copies a tensor on the host (strict refuses host casts; "
                                          "--policy kernelbench allows a dtype cast around a kernel of its own)"),
    ("reads a tensor's values on the host", "reads a tensor's value on the host (.item()): a device sync, and host "
                                            "code that may depend on data"),
    ("the extension", "ATen does part of the work inside the extension's C++ (.mean(), .sum(), operators)"),
    ("tensor arithmetic on the host", "torch computes part of the forward (tensor arithmetic outside the kernel)"),
    ("calls the torch module", "torch computes a layer of the task (pooling, norm, activation module)"),
    ("calls torch.", "torch computes an op of the task (torch.mean, torch.softmax, ...)"),
    ("calls the tensor method", "torch computes an op of the task (x.mean(), x.var(), ...)"),
]
WORDS = dict(REASONS)
RANK = {c: i for i, (c, _) in enumerate(REASONS)}


def lines(path):
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip()]


def primary(v):
    rs = v.get("reasons") or []
    known = sorted((r for r in rs if r in RANK), key=RANK.get)
    if known:
        return known[0]
    return rs[0] if rs else v.get("status", "?")


def plain(v):
    code = primary(v)
    if code == "TORCH_OP_IN_FORWARD":
        said = finding(v)
        for pat, words in REFINE:
            if pat in said:
                return words
    if code in WORDS:
        return WORDS[code]
    if code.startswith("REF_") or code.startswith("TASK_"):
        return "the task (reference), not the answer, is at fault: task hygiene"
    return f"({code}: no reviewed wording yet)"


def uniq(xs):
    return list(dict.fromkeys(xs or []))


def finding(v):
    """The first finding of the primary reason where the verdict lists findings, else its message."""
    code = primary(v)
    f = next((f for f in v.get("findings") or [] if f.get("code") == code), None)
    return f"line {f['line']}: {f['message']}" if f else v.get("message", "")


def cell(s, n=None):
    s = " ".join(str(s).split()).replace("|", "\\|")
    return s if n is None or len(s) <= n else s[:n - 1] + "…"


def load_verdicts(paths, policy):
    """{name: verdict} for --policy, {name: other policy's status}; later files override earlier ones."""
    mine, other = {}, {}
    for p in paths:
        for v in lines(p):
            if not v.get("status") or "name" not in v:
                continue  # the summary line of sieve-cli verify --json
            if v.get("policy", policy) == policy:
                mine[v["name"]] = v
            else:
                other[v["name"]] = v
    return mine, other


def build(answers, mine, other):
    """Rows of answers.jsonl joined with their verdicts: (row, verdict or None, other policy's or None)."""
    out = []
    for r in answers:
        stem = os.path.splitext(os.path.basename(r["answer_file"]))[0]
        v = mine.get(r["name"]) or mine.get(stem)
        o = other.get(r["name"]) or other.get(stem)
        out.append((r, v, o))
    return out


def report(joined, policy, notes, max_rows):
    p = []
    kb = collections.Counter()
    grid = collections.defaultdict(collections.Counter)
    for r, v, _ in joined:
        k = {True: "KB correct", False: "KB incorrect", None: "KB not recorded"}[r.get("kb_correct")]
        kb[(r["source"], k)] += 1
        grid[(r["source"], k)][v["status"] if v else "no Sieve verdict"] += 1
    statuses = sorted({s for c in grid.values() for s in c})
    p.append(f"Sieve's verdicts (policy {policy}) by KernelBench's recorded verdict:\n")
    p.append("| answers | " + " | ".join(statuses) + " | total |")
    p.append("| --- |" + " ---: |" * (len(statuses) + 1))
    for key in sorted(grid):
        c = grid[key]
        p.append(f"| {key[0]}, {key[1]} | " + " | ".join(str(c.get(s, 0)) for s in statuses) + f" | {sum(c.values())} |")
    p.append("\nSTAGE0_OK: stage 0 (run alone, on the CPU) accepts it; only a GPU run decides PASS.\n")

    t1 = [(r, v, o) for r, v, o in joined if r.get("kb_correct") is True and v and v["status"] not in ("PASS", "STAGE0_OK")]
    why = collections.Counter((r["source"], primary(v), plain(v)) for r, v, _ in t1)
    p.append(f"### 1. KernelBench counts correct, Sieve does not: {len(t1)} answers\n")
    p.append("| source | primary reason | answers | in words |")
    p.append("| --- | --- | ---: | --- |")
    for (src, code, words), n in sorted(why.items(), key=lambda kv: (kv[0][0], -kv[1])):
        p.append(f"| {src} | {code} | {n} | {cell(words)} |")
    other_name = "kernelbench" if policy == "strict" else "strict"
    p.append(f"\n| answer | KB speedup | Sieve ({policy}) | reasons | finding | reason a person would agree with "
             f"| stage 0 under {other_name} | note |")
    p.append("| --- | ---: | --- | --- | --- | --- | --- | --- |")
    shown = sorted(t1, key=lambda x: (x[0]["source"], primary(x[1]), x[0]["name"]))
    for r, v, o in shown[:max_rows] if max_rows else shown:
        sp = r.get("kb_speedup")
        p.append(f"| {cell(r['name'])} | {'' if sp is None else f'{sp:.2f}'} | {v['status']} | "
                 f"{cell(','.join(uniq(v.get('reasons'))))} | {cell(finding(v), 110)} | {cell(plain(v))} | "
                 f"{o['status'] if o else ''} | {cell(notes.get(r['name'], ''))} |")
    if max_rows and len(shown) > max_rows:
        p.append(f"\n({len(shown) - max_rows} more rows: run without --max-rows)")

    t2 = [(r, v) for r, v, _ in joined if r.get("kb_correct") is False and v and v["status"] == "PASS"]
    p.append(f"\n### 2. Sieve passes, KernelBench counts incorrect: {len(t2)} answers\n")
    if not any(v and v["status"] == "PASS" for _, v, _ in joined):
        p.append("(no PASS verdicts given: stage 0 alone decides no PASS; add a GPU run's sieve.jsonl)")
    else:
        p.append("| answer | KB note | Sieve flags | note |")
        p.append("| --- | --- | --- | --- |")
        for r, v in sorted(t2, key=lambda x: x[0]["name"]):
            p.append(f"| {cell(r['name'])} | {cell(r.get('kb_note', ''))} | {cell(','.join(v.get('flags') or []))} | "
                     f"{cell(notes.get(r['name'], ''))} |")
    return "\n".join(p)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", help="real_answers.py's folder (answers.jsonl)")
    ap.add_argument("--verdicts", nargs="+", required=True)
    ap.add_argument("--policy", default="strict")
    ap.add_argument("--notes", help="JSON: answer name -> a note of one's own")
    ap.add_argument("--max-rows", type=int, default=0, help="at most N rows in table 1 (0: all)")
    ap.add_argument("--source", help="only answers of this source (leaderboard, tritonllm)")
    args = ap.parse_args()
    answers = lines(os.path.join(args.out, "answers.jsonl"))
    if args.source:
        answers = [r for r in answers if r["source"] == args.source]
    for path in args.verdicts:
        if not os.path.exists(path):
            print(f"real_table: {path}: no such file", file=sys.stderr)
            return 2
    mine, other = load_verdicts(args.verdicts, args.policy)
    notes = json.load(open(args.notes)) if args.notes else {}
    print(report(build(answers, mine, other), args.policy, notes, args.max_rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
