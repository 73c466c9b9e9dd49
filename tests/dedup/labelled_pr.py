#!/usr/bin/env python3
"""Pair precision and recall of `sieve-cli dedup` on the labelled set tests/data/dedup/labelled/.

Each folder there is a task (an operator), each file TASK/FAMILY.N.EXT one rendering of one algorithm
(README.md there lists them). Tier 1, FAMILY.N.EXT: the renderings of a family differ only by what the
normaliser claims to see through (names, literals, comments, inlined temporaries, the order of independent
statements, redundant parentheses and braces) and must share a cluster. Tier 2, FAMILY.N+edit.EXT: a
rendering with a further small edit (a tuning kwarg, axis=0, a swapped operand, a qualifier); reported,
not required. Different families of a task are different algorithms and must never share a cluster.
The script imports the files into a fresh corpus (one task per folder), runs `sieve-cli dedup --json`
(per-task scope, the default) and scores every pair of samples of the same task:
precision = pairs clustered together that share a family / pairs clustered together,
recall    = pairs that share a family and were clustered together / pairs that share a family,
for the tier-1 pairs and for all pairs. Exit status 1 when tier 1's precision or recall, or the
precision over all pairs, is below its bar.

Usage: labelled_pr.py SIEVE_CLI [--data DIR] [--threshold T] [--min-precision P] [--min-recall R] [--verbose]
"""
import argparse
import itertools
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data", "dedup", "labelled")

REFERENCE = """# task: %s
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return x


N = 16


def get_inputs():
    return [torch.randn(N)]


def get_init_inputs():
    return []
"""


def load(data):
    """{task: {sample_name: family}} and the rows to import."""
    labels, rows = {}, []
    for task in sorted(os.listdir(data)):
        folder = os.path.join(data, task)
        if not os.path.isdir(folder):
            continue
        rows.append({"task_id": task, "reference_code": REFERENCE % task})
        labels[task] = {}
        for name in sorted(os.listdir(folder)):
            family = name.split(".")[0]
            sample = name.rsplit(".", 1)[0]
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                rows.append({"sample_id": sample, "task_id": task, "code": f.read()})
            labels[task][sample] = family
    return labels, rows


def run(cli, *args):
    done = subprocess.run([cli, *args], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit("%s %s failed (%d):\n%s%s" % (cli, " ".join(args), done.returncode, done.stdout, done.stderr))
    return done.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cli")
    ap.add_argument("--data", default=DATA)
    ap.add_argument("--threshold", type=float)
    ap.add_argument("--min-precision", type=float, default=0.95)
    ap.add_argument("--min-recall", type=float, default=0.95)
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()

    labels, rows = load(a.data)
    with tempfile.TemporaryDirectory() as tmp:
        rows_path = os.path.join(tmp, "labelled.jsonl")
        with open(rows_path, "w", encoding="utf-8") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
        db = os.path.join(tmp, "labelled.sieve")
        run(a.cli, "init", db)
        run(a.cli, "import", db, "--format", "sieve", rows_path)
        args = ["dedup", db, "--json"] + (["--threshold", str(a.threshold)] if a.threshold else [])
        report = json.loads(run(a.cli, *args))

    cluster = {}  # (task, sample) -> cluster id; samples in no listed cluster are singletons
    for c in report["duplicate_clusters"]:
        for m in c["members"]:
            cluster[(c["task"], m["sample"])] = c["id"]
    scores = {"tier 1": [0, 0, 0], "all": [0, 0, 0]}  # true positives, false positives, false negatives
    misses, false_merges = [], []
    for task, samples in labels.items():
        for x, y in itertools.combinations(sorted(samples), 2):
            same = samples[x] == samples[y]
            together = (task, x) in cluster and cluster.get((task, x)) == cluster.get((task, y))
            tiers = ["all"] + ([] if "+edit" in x or "+edit" in y else ["tier 1"])
            for t in tiers:
                scores[t][0] += same and together
                scores[t][1] += together and not same
                scores[t][2] += same and not together
            if same and not together:
                misses.append("%s: %s / %s" % (task, x, y))
            if together and not same:
                false_merges.append("%s: %s / %s" % (task, x, y))
    families = len({(t, f) for t, s in labels.items() for f in s.values()})
    tier2 = sum("+edit" in n for s in labels.values() for n in s)
    print("labelled set: %d samples (%d with a further edit), %d tasks, %d families; threshold %s" %
          (sum(len(s) for s in labels.values()), tier2, len(labels), families, report["threshold"]))
    result = {}
    for t, (tp, fp, fn) in scores.items():
        precision = tp / (tp + fp) if tp + fp else 1.0
        recall = tp / (tp + fn) if tp + fn else 1.0
        result[t] = (precision, recall)
        print("%-7s precision %.3f (%d of %d clustered pairs share a family)  recall %.3f (%d of %d same-family pairs)" %
              (t + ":", precision, tp, tp + fp, recall, tp, tp + fn))
    ok = (result["tier 1"][0] >= a.min_precision and result["tier 1"][1] >= a.min_recall and
          result["all"][0] >= a.min_precision)
    if a.verbose or not ok:
        for m in misses:
            print("  missed      " + m)
        for m in false_merges:
            print("  false merge " + m)
    print("ok" if ok else "FAILED: bars are precision >= %.2f (tier 1 and all), recall >= %.2f (tier 1)" %
          (a.min_precision, a.min_recall))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
