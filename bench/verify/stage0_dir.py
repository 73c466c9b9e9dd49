"""Stage 0 over a folder of answers (e.g. public model runs, which stay outside the repository): for each
*.py, the fatal findings under both policies; then how many answers each policy rejects and for which
reasons. The backend is cuda when the file calls load_inline, else triton.

usage (from gpu/worker, with the verifier's Python):
  PYTHONPATH=. python ../../bench/verify/stage0_dir.py DIR [--tsv OUT.tsv] [--jsonl OUT.jsonl]

--jsonl writes, per answer and policy, the verdict stage 0 alone gives it as `sieve-cli verify --json` writes
verdicts (name: the file's stem, status FAIL_STATIC with reasons and message, or STAGE0_OK), plus "policy":
what real_table.py reads.
"""
import argparse
import collections
import json
import os
import sys

from sieve_worker import rules
from sieve_worker.static import static


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--tsv", help="write file, backend and the fatal codes per policy")
    ap.add_argument("--jsonl", help="write stage 0's verdict per answer and policy")
    args = ap.parse_args()
    files = sorted(f for f in os.listdir(args.dir) if f.endswith(".py"))
    rejected = collections.Counter()
    reasons = collections.Counter()
    backends = collections.Counter()
    rows, verdicts = [], []
    for name in files:
        with open(os.path.join(args.dir, name), encoding="utf-8", errors="replace") as f:
            code = f.read()
        backend = "cuda" if "load_inline" in code else "triton"
        backends[backend] += 1
        row = [name, backend]
        for policy in ("strict", "kernelbench"):
            findings = static.check(code, backend, policy)
            codes = sorted({x.code for x in findings if x.fatal})
            v = rules.static_failure(findings)
            verdicts.append({"name": name[:-3], "policy": policy, "backend": backend,
                             "status": v.status if v else "STAGE0_OK", "stage": "static",
                             "reasons": v.reasons if v else [], "message": v.message if v else "",
                             "flags": sorted({x.code for x in findings if not x.fatal}),
                             "findings": [{"code": x.code, "line": x.line, "message": x.message}
                                          for x in findings if x.fatal]})
            if codes:
                rejected[(backend, policy)] += 1
                for c in codes:
                    reasons[(backend, policy, c)] += 1
            row.append(",".join(codes))
        rows.append(row)
    if args.tsv:
        with open(args.tsv, "w") as out:
            out.write("file\tbackend\tstrict\tkernelbench\n")
            for r in rows:
                out.write("\t".join(r) + "\n")
    if args.jsonl:
        with open(args.jsonl, "w") as out:
            out.write("".join(json.dumps(v) + "\n" for v in verdicts))
    print(f"{len(files)} answers: " + ", ".join(f"{n} {b}" for b, n in sorted(backends.items())))
    print("backend\tpolicy\tFAIL_STATIC\tof")
    for (b, p), n in sorted(rejected.items()):
        print(f"{b}\t{p}\t{n}\t{backends[b]}")
    print("backend\tpolicy\treason\tanswers")
    for (b, p, c), n in sorted(reasons.items(), key=lambda kv: (kv[0][0], kv[0][1], -kv[1])):
        print(f"{b}\t{p}\t{c}\t{n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
