#!/usr/bin/env python3
"""Builds the real-problem verifier benchmark from a KernelBench checkout (read at run time, never copied
into this repository):

  - every level-1 and level-2 problem (KernelBench/level{1,2}/ID_Name.py) at its shipped shapes, copied
    into OUT/problems/ for `sieve-cli import --format kernelbench`;
  - our own answers for them (kb_answers.py: correct, buggy, TF32, partial, wrapper and zeros answers in
    Triton and load_inline CUDA, several per problem where a family template fits);
  - KernelBench's own example answers (src/kernelbench/prompts/: model_new_ex_*.py with their model_ex_*.py
    references, few_shot/ likewise), with the verdict a person would give each (kb_prompt_verdicts.json);
  - with --leaderboard DIR, the answers models wrote (a checkout of anneouyang/KernelBenchLeaderboard:
    docs/assets/data.json names, per problem, the solutions KernelBench counted correct, at the sizes of its
    time), each checked here against the problem as KernelBench HEAD ships it (intent "leaderboard");
    --no-own-answers leaves out kb_answers.py's;

written as OUT/corpus.sieve.jsonl (the prompt tasks and every sample, Sieve's import format) and
OUT/samples.jsonl (one row per sample for baseline.py and kb_compare.py: name, task, task_file,
answer_file, intended, expect).

    python3 kb_corpus.py KB_CHECKOUT OUT_DIR [--levels 1,2] [--only REGEX] [--samples REGEX] [--max-problems N]
                         [--leaderboard DIR] [--no-own-answers] [--no-prompts]

Pure standard library; needs no torch.
"""
import argparse
import json
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kb_answers  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def prompt_pairs(root):
    """(task name, reference path, answer path, answer stem) for KernelBench's example answers."""
    base = os.path.join(root, "src", "kernelbench", "prompts")
    pairs = []
    for sub in ("", "few_shot"):
        d = os.path.join(base, sub)
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            m = re.fullmatch(r"model_new_ex_(\w+)\.py", f)
            if not m:
                continue
            ex = m.group(1)
            ref = None
            for cand in (f"model_ex_{ex}.py", "model_ex_add.py" if ex.startswith("add_") else None):
                if cand and os.path.exists(os.path.join(d, cand)):
                    ref = os.path.join(d, cand)
                    break
            stem = (sub + "/" if sub else "") + f[:-3]
            pairs.append((ref, os.path.join(d, f), stem))
    return pairs


def leaderboard_answers(root):
    """{(level, problem stem): [(variant, "cuda", code, "leaderboard")]} from a KernelBenchLeaderboard
    checkout: docs/assets/data.json maps "Level N: stem" to the solutions (docs/assets/solutions/HASH.py) that
    KernelBench counted correct, with the model that wrote each."""
    data = json.load(open(os.path.join(root, "docs", "assets", "data.json")))
    out = {}
    for key, entries in data.items():
        m = re.fullmatch(r"Level (\d+): (.+)", key)
        if not m:
            continue
        for e in entries:
            path = os.path.join(root, "docs", "assets", "solutions", e["file"] + ".py")
            if not os.path.exists(path):
                continue
            model = re.sub(r"[^A-Za-z0-9.]+", "-", e.get("display_name", "model"))
            out.setdefault((int(m.group(1)), m.group(2)), []).append(
                (f"lb-{model}-{e['file'][:8]}", "cuda", open(path).read(), "leaderboard"))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kernelbench")
    ap.add_argument("out")
    ap.add_argument("--levels", default="1,2")
    ap.add_argument("--only", help="only problems whose file name matches this regular expression")
    ap.add_argument("--max-problems", type=int, default=0, help="at most N problems per level (0: all)")
    ap.add_argument("--samples", help="only answers whose sample name (task/variant) matches this regular expression")
    ap.add_argument("--no-prompts", action="store_true")
    ap.add_argument("--leaderboard", help="a KernelBenchLeaderboard checkout: its solutions as answers too")
    ap.add_argument("--no-own-answers", action="store_true", help="leave out kb_answers.py's answers")
    args = ap.parse_args()
    root, out = os.path.abspath(args.kernelbench), os.path.abspath(args.out)
    for d in ("problems", "answers", "prompt_tasks"):
        shutil.rmtree(os.path.join(out, d), ignore_errors=True)
        os.makedirs(os.path.join(out, d))
    expected = json.load(open(os.path.join(HERE, "kb_prompt_verdicts.json")))["answers"]
    board = leaderboard_answers(args.leaderboard) if args.leaderboard else {}
    rows, sieve_rows = [], []
    n_problems = 0
    for level in [int(x) for x in args.levels.split(",")]:
        src = os.path.join(root, "KernelBench", f"level{level}")
        files = sorted((f for f in os.listdir(src) if f.endswith(".py")), key=lambda f: int(f.split("_")[0]))
        if args.only:
            files = [f for f in files if re.search(args.only, f)]
        if args.max_problems:
            files = files[:args.max_problems]
        os.makedirs(os.path.join(out, "problems", f"level{level}"), exist_ok=True)
        for f in files:
            stem = f[:-3]
            code = open(os.path.join(src, f)).read()
            tpath = os.path.join(out, "problems", f"level{level}", f)
            shutil.copyfile(os.path.join(src, f), tpath)
            n_problems += 1
            task = f"kernelbench/level{level}/{stem}"
            answers = [] if args.no_own_answers else list(kb_answers.answers_for(level, stem, code))
            answers += board.get((level, stem), [])
            for variant, backend, answer, intended in answers:
                name = f"{task}/{variant}"
                if args.samples and not re.search(args.samples, name):
                    continue
                apath = os.path.join(out, "answers", f"l{level}_{stem}__{variant}.py")
                with open(apath, "w") as fh:
                    fh.write(answer)
                sieve_rows.append({"sample_id": name, "task_id": task, "code": answer, "backend": backend,
                                   "origin": "bench"})
                rows.append({"name": name, "task": task, "task_file": tpath, "answer_file": apath,
                             "backend": backend, "intended": intended, "level": level})
    n_prompts = 0
    seen_pairs = {}
    if not args.no_prompts:
        for ref, ans, stem in prompt_pairs(root):
            exp = expected.get(stem)
            if exp is None:
                print(f"note: no expected verdict listed for prompts/{stem}; skipped", file=sys.stderr)
                continue
            if exp.get("skip"):
                print(f"note: prompts/{stem} skipped: {exp['skip']}", file=sys.stderr)
                continue
            code = open(ans).read()
            refcode = open(ref).read()
            if (refcode, code) in seen_pairs:  # model_new_ex_1 is model_new_ex_add, byte for byte
                print(f"note: prompts/{stem} is the same answer to the same reference as prompts/"
                      f"{seen_pairs[(refcode, code)]}; counted once", file=sys.stderr)
                continue
            seen_pairs[(refcode, code)] = stem
            task = "kernelbench-prompts/" + os.path.basename(ref)[:-3].replace("model_ex_", "") + \
                ("-few_shot" if stem.startswith("few_shot/") else "")
            tpath = os.path.join(out, "prompt_tasks", task.split("/")[1] + ".py")
            if not os.path.exists(tpath):
                with open(tpath, "w") as fh:
                    fh.write(refcode)
                sieve_rows.insert(0, {"task_id": task, "reference_code": refcode, "level": 1, "dtype": "fp32",
                                      "source": "kernelbench-prompts"})
            name = f"{task}/{stem.replace('/', '_')}"
            backend = exp.get("backend", "cuda")
            sieve_rows.append({"sample_id": name, "task_id": task, "code": code, "backend": backend, "origin": "bench"})
            rows.append({"name": name, "task": task, "task_file": tpath, "answer_file": ans, "backend": backend,
                         "intended": "kernelbench_example", "expect": exp, "level": 0})
            n_prompts += 1
    with open(os.path.join(out, "corpus.sieve.jsonl"), "w") as fh:
        for r in sieve_rows:
            fh.write(json.dumps(r) + "\n")
    with open(os.path.join(out, "samples.jsonl"), "w") as fh:
        for r in rows:
            fh.write(json.dumps(r) + "\n")
    by = {}
    for r in rows:
        by[r["intended"]] = by.get(r["intended"], 0) + 1
    print(f"{n_problems} problems, {len(rows)} samples ({n_prompts} KernelBench example answers); by intent: "
          + ", ".join(f"{k} {v}" for k, v in sorted(by.items())) + f" -> {out}")


if __name__ == "__main__":
    main()
