#!/usr/bin/env bash
# Native verification of raw CUDA samples against the worker path (load_inline) on the same kernels, on
# one GPU, in one run: bench/nvrtc/native_gen.py writes TASKS tasks, each answered by one kernel in both
# forms; each form goes into its own corpus and through `sieve-cli verify --gpus 0` with fresh caches.
#
#   bench/nvrtc/native_run.sh SIEVE_CLI [OUT_DIR] [TASKS]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cli="$(realpath "${1:?usage: native_run.sh SIEVE_CLI [OUT_DIR] [TASKS]}")"
out="${2:-${OUT:-/tmp/sieve-bench-native}}"
tasks="${3:-12}"
export SIEVE_CLI="$cli"
rm -rf "$out"; mkdir -p "$out"
python3 "$here/native_gen.py" "$out/gen" "$tasks"
for kind in raw inline; do
  "$cli" init "$out/$kind.db" >/dev/null
  "$cli" import "$out/$kind.db" --format sieve "$out/gen/tasks.jsonl" "$out/gen/$kind.jsonl" >/dev/null
  t0=$(date +%s.%N)
  "$cli" verify "$out/$kind.db" --gpus 0 ${PARALLEL:+--parallel "$PARALLEL"} --json \
    --cache-dir "$(mktemp -d /tmp/sieve-bench-native-cache.XXXXXX)" > "$out/$kind.verdicts.jsonl" 2> "$out/$kind.stderr" \
    || { tail -20 "$out/$kind.stderr"; exit 1; }
  t1=$(date +%s.%N)
  echo "{\"kind\": \"$kind\", \"wall_s\": $(python3 -c "print($t1 - $t0)")}" > "$out/$kind.time.json"
done
python3 - "$out" <<'PY'
import json, statistics, sys
out = sys.argv[1]
rows = {}
for kind in ("raw", "inline"):
    wall = json.load(open(f"{out}/{kind}.time.json"))["wall_s"]
    vs = [json.loads(l) for l in open(f"{out}/{kind}.verdicts.jsonl") if l.strip().startswith("{")]
    vs = [v for v in vs if "status" in v]
    statuses = {}
    for v in vs:
        statuses[v["status"]] = statuses.get(v["status"], 0) + 1
    cand = [v["speedup"] for v in vs if v.get("speedup")]
    rows[kind] = {"wall_s": round(wall, 1), "verdicts": len(vs), "per_min": round(len(vs) / wall * 60, 1),
                  "statuses": statuses, "median_speedup_vs_eager": statistics.median(cand) if cand else None}
    print(kind, json.dumps(rows[kind]))
print("native / worker samples per minute: %.1fx" % (rows["raw"]["per_min"] / max(rows["inline"]["per_min"], 1e-9)))
json.dump(rows, open(f"{out}/summary.json", "w"), indent=1)
PY
