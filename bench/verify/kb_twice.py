#!/usr/bin/env python3
"""The same corpus verified twice (issue 31.3): which samples got another verdict in the second run.

    python3 bench/verify/kb_twice.py RUN1/sieve.jsonl RUN2/sieve.jsonl

Reads the verdict rows `sieve-cli verify` wrote (kb_run.sh keeps them in OUT/sieve.jsonl), joins them on the
sample's name and prints: how many samples both runs verified and how many of them got the same status, each
sample whose status differs (both verdicts with their reasons and messages), each whose status is the same but
whose reasons differ, and how many each run verified that the other did not (a run stopped by SIEVE_LIMIT_S).
Exit status 1 when a status differs."""
import json
import sys


def verdicts(path):
    rows = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.startswith("{"):
                continue
            try:
                r = json.loads(line)
            except json.JSONDecodeError as e:
                sys.exit(f"{path}:{n}: not a JSON verdict row ({e})")
            if "summary" in r:
                continue  # the run's closing summary
            if "name" not in r or "status" not in r:
                sys.exit(f"{path}:{n}: a verdict row needs `name` and `status`")
            rows[r["name"]] = r  # a resumed run's later row for a sample replaces the earlier one
    return rows


def show(r):
    return f"{r['status']} {','.join(r.get('reasons') or [])}: {(r.get('message') or '')[:160]}"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    a, b = verdicts(sys.argv[1]), verdicts(sys.argv[2])
    both = sorted(set(a) & set(b))
    status = [n for n in both if a[n]["status"] != b[n]["status"]]
    reasons = [n for n in both
               if n not in status and sorted(a[n].get("reasons") or []) != sorted(b[n].get("reasons") or [])]
    print(f"both runs: {len(both)} samples, same status {len(both) - len(status)}, another status {len(status)}, "
          f"same status with other reasons {len(reasons)}; only in run 1: {len(set(a) - set(b))}, "
          f"only in run 2: {len(set(b) - set(a))}")
    for title, names in (("another status", status), ("same status, other reasons", reasons)):
        if names:
            print(f"\n{title}:")
        for n in names:
            print(f"- {n}\n    run 1: {show(a[n])}\n    run 2: {show(b[n])}")
    return 1 if status else 0


if __name__ == "__main__":
    sys.exit(main())
