#!/usr/bin/env bash
# Multi-GPU scaling: the verifier benchmark's 200 samples (gen.py) verified with one GPU and with two
# (`--gpus 0` vs `--gpus 0,1`), each on its own copy of the same corpus with fresh caches, in one run.
#
#   bench/verify/scaling.sh SIEVE_CLI [OUT_DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cli="$(realpath "${1:?usage: scaling.sh SIEVE_CLI [OUT_DIR]}")"
out="${2:-${OUT:-/tmp/sieve-bench-scaling}}"
export SIEVE_PYTHON="${SIEVE_PYTHON:-$(command -v python3)}"
export SIEVE_WORKER_DIR="$(cd "$here/../../gpu/worker" && pwd)"
rm -rf "$out"; mkdir -p "$out"
"$cli" init "$out/base.db" >/dev/null
python3 "$here/gen.py" "$out/work" "$out/base.db" >/dev/null
nvidia-smi -L
for gpus in 0 0,1; do
  tag="gpus_${gpus/,/_}"
  cp "$out/base.db" "$out/$tag.db"
  "$cli" verify "$out/$tag.db" --gpus "$gpus" --json --cache-dir "$(mktemp -d /tmp/sieve-scaling-cache.XXXXXX)" \
    > "$out/$tag.jsonl" 2> "$out/$tag.stderr" || { tail -20 "$out/$tag.stderr"; exit 1; }
  tail -1 "$out/$tag.jsonl"
done
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
runs = {}
for tag in ("gpus_0", "gpus_0_1"):
    rows = [json.loads(l) for l in open(f"{out}/{tag}.jsonl") if l.strip()]
    runs[tag] = {"summary": next(r["summary"] for r in rows if "summary" in r),
                 "status": {r["name"]: r["status"] for r in rows if "status" in r}}
one, two = runs["gpus_0"], runs["gpus_0_1"]
same = sum(1 for k, v in one["status"].items() if two["status"].get(k) == v)
s1, s2 = one["summary"], two["summary"]
res = {"one_gpu": {"wall_s": s1["wall_s"], "per_min": s1["samples_per_min"], "by_status": s1["by_status"]},
       "two_gpus": {"wall_s": s2["wall_s"], "per_min": s2["samples_per_min"], "by_status": s2["by_status"]},
       "scaling": s2["samples_per_min"] / s1["samples_per_min"], "same_verdicts": same, "of": len(one["status"])}
print(json.dumps(res, indent=1))
json.dump(res, open(f"{out}/scaling.json", "w"), indent=1)
PY
