#!/usr/bin/env python3
"""Two Sieve versions on the same bench/verify corpus, run one after the other in one device call (run.sh PHASE=sieve
from each version's tree, each into its own OUT_DIR): samples/min of each, their ratio, the checks per verdict, the
per-stage breakdown (compare.py's) and the samples whose verdicts differ. Used for the cost of new checks (issue 31:
within 10% of the throughput before).

    python3 ab.py OLD_OUT [OLD_OUT ...] -- NEW_OUT [NEW_OUT ...]

Each OUT holds sieve.jsonl, sieve_time.json and corpus.db (the checks). Prints the medians over the runs of each
side. Pure standard library.
"""
import json
import os
import sqlite3
import statistics
import sys

from compare import phase_lines


def run(out):
    rows = [json.loads(l) for l in open(os.path.join(out, "sieve.jsonl")) if l.strip()]
    rows = {r["sample"]: r for r in rows if "status" in r}
    wall = json.load(open(os.path.join(out, "sieve_time.json")))["sieve_wall_s"]
    db = sqlite3.connect(os.path.join(out, "corpus.db"))
    checks = [n for (n,) in db.execute("SELECT count(c.verdict_id) FROM verdicts v LEFT JOIN verdict_checks c "
                                       "ON c.verdict_id = v.id GROUP BY v.id")]
    return rows, 60 * len(rows) / wall, wall, checks


def main(argv):
    if "--" not in argv:
        sys.exit(__doc__)
    cut = argv.index("--")
    sides = {"old": [run(d) for d in argv[:cut]], "new": [run(d) for d in argv[cut + 1:]]}
    rate = {}
    for side, runs in sides.items():
        rate[side] = statistics.median(r[1] for r in runs)
        checks = runs[0][3]
        print(f"{side}: {len(runs)} runs, samples/min " + ", ".join(f"{r[1]:.1f} ({len(r[0])} in {r[2]:.1f} s)"
                                                                   for r in runs)
              + f"; median {rate[side]:.1f}; checks per verdict median {statistics.median(checks or [0])}, "
                f"sum {sum(checks)}")
        print("\n".join(phase_lines(list(runs[0][0].values()))))
    print(f"new / old throughput: {rate['new'] / rate['old']:.3f}")
    old, new = sides["old"][0][0], sides["new"][0][0]
    differ = [(k, old[k]["status"], new[k]["status"]) for k in sorted(set(old) & set(new))
              if old[k]["status"] != new[k]["status"]]
    print(f"verdicts compared {len(set(old) & set(new))}, differ {len(differ)}")
    for k, a, b in differ:
        print(f"  {k}: old {a}, new {b}: {'; '.join(new[k].get('reasons') or [])} {str(new[k].get('message'))[:200]}")


if __name__ == "__main__":
    main(sys.argv[1:])
