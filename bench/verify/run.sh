#!/usr/bin/env bash
# Verifier benchmark: Sieve (`sieve-cli verify --gpus 0`) against the KernelBench-style baseline
# (baseline.py: a fresh Python per sample) on the same 200 Triton samples (40 tasks), in one session on
# one GPU. Builds nothing: it is given a prebuilt sieve-cli (see pack.sh and README.md).
#
#   bench/verify/run.sh SIEVE_CLI [PYTHON] [OUT_DIR]
#
# SIEVE_CLI  the sieve-cli binary; shared libraries next to it in ../lib are used when present
# PYTHON     an interpreter with torch and triton (default: python3)
# OUT_DIR    where the corpus, the verdicts and the summary go (default: $OUT or /tmp/sieve-bench-verify)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cli="$(realpath "${1:?usage: run.sh SIEVE_CLI [PYTHON] [OUT_DIR]}")"
py="${2:-python3}"
out="${3:-${OUT:-/tmp/sieve-bench-verify}}"
libdir="$(dirname "$cli")/../lib"
if [ -d "$libdir" ]; then export LD_LIBRARY_PATH="$(realpath "$libdir")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"; fi
export SIEVE_PYTHON="$(command -v "$py")"
export SIEVE_WORKER_DIR="$repo/gpu/worker"

"$SIEVE_PYTHON" -c 'import torch, triton; assert torch.cuda.is_available(), "no CUDA device"; print("torch", torch.__version__, "triton", triton.__version__, torch.cuda.get_device_name(0))'
if ldd "$cli" | grep -q "not found"; then ldd "$cli" | grep "not found"; echo "sieve-cli is missing shared libraries (see pack.sh)" >&2; exit 1; fi
nvidia-smi -L

rm -rf "$out"; mkdir -p "$out"
"$cli" init "$out/corpus.db" >/dev/null
python3 "$here/gen.py" "$out/work" "$out/corpus.db"
cp "$out/work/samples.jsonl" "$out/samples.jsonl"

smi() { nvidia-smi --query-gpu=timestamp,utilization.gpu --format=csv,noheader -i 0 -lms 100 > "$1" 2>/dev/null & echo $!; }
now() { date +%s.%N; }

# Sieve: one worker on GPU 0, candidates verified 8 at a time (timing holds the GPU alone), fresh caches.
echo "== sieve-cli verify" >&2
smi_pid=$(smi "$out/sieve_smi.csv")
t0=$(now)
"$cli" verify "$out/corpus.db" --gpus 0 --parallel "${PARALLEL:-8}" --json --cache-dir "$out/sieve-cache" \
  > "$out/sieve.jsonl" 2> "$out/sieve.stderr" || { tail -20 "$out/sieve.stderr"; exit 1; }
t1=$(now)
kill "$smi_pid" 2>/dev/null || true

# Baseline: a fresh process per sample, its own empty Triton cache.
echo "== baseline.py" >&2
smi_pid=$(smi "$out/baseline_smi.csv")
t2=$(now)
TRITON_CACHE_DIR="$out/baseline-triton-cache" "$SIEVE_PYTHON" "$here/baseline.py" "$out/samples.jsonl" \
  "$out/baseline.jsonl" --device cuda:0 > "$out/baseline.summary" 2> "$out/baseline.stderr"
t3=$(now)
kill "$smi_pid" 2>/dev/null || true

python3 - "$out" "$t0" "$t1" "$t2" "$t3" <<'PY'
import json, sys
out, t0, t1, t2, t3 = sys.argv[1], *map(float, sys.argv[2:])
json.dump({"sieve_wall_s": t1 - t0, "baseline_wall_s": t3 - t2}, open(out + "/times.json", "w"))
PY
tail -1 "$out/sieve.jsonl"
python3 "$here/compare.py" "$out" | tee "$out/report.txt"
