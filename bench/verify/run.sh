#!/usr/bin/env bash
# Verifier benchmark: Sieve (`sieve-cli verify --gpus 0`) against the KernelBench-style baseline
# (baseline.py: a fresh Python per sample) on the same 200 Triton samples (40 tasks), in one session on
# one GPU. Builds nothing: it is given a prebuilt sieve-cli (see pack.sh and README.md).
#
#   bench/verify/run.sh SIEVE_CLI [PYTHON] [OUT_DIR]
#
# SIEVE_CLI  the sieve-cli binary (from pack.sh: it finds its libraries in ../lib through its RUNPATH)
# PYTHON     an interpreter with torch and triton (default: python3)
# OUT_DIR    where the corpus, the verdicts and the summary go (default: $OUT or /tmp/sieve-bench-verify)
#
# Environment: PARALLEL (Sieve's --parallel; default: sieve-cli's own, the CPU cores per GPU); BASELINE_BUDGET_S (default 300: the baseline
# starts no new sample after that, so that the whole run fits a 10-minute command; its samples/min is
# measured over the samples it did, in a stride order that mixes tasks and variants; 0 = all 200);
# PHASE=all|sieve|baseline|report to run the parts as separate commands on a machine that stays up
# (same OUT_DIR each time).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cli="$(realpath "${1:?usage: run.sh SIEVE_CLI [PYTHON] [OUT_DIR]}")"
py="${2:-python3}"
out="${3:-${OUT:-/tmp/sieve-bench-verify}}"
export SIEVE_PYTHON="$(command -v "$py")"
export SIEVE_WORKER_DIR="$repo/gpu/worker"

"$SIEVE_PYTHON" -c 'import torch, triton; assert torch.cuda.is_available(), "no CUDA device"; print("torch", torch.__version__, "triton", triton.__version__, torch.cuda.get_device_name(0))'
# the runtime wall, built at install (setup.sh) and kept: here before any clock starts, its time printed apart
(cd "$SIEVE_WORKER_DIR" && PYTHONPATH=. "$SIEVE_PYTHON" -m sieve_worker --build-wall) >&2
if ldd "$cli" | grep -q "not found"; then ldd "$cli" | grep "not found"; echo "sieve-cli is missing shared libraries (see pack.sh)" >&2; exit 1; fi
nvidia-smi -L

phase="${PHASE:-all}"
if [ "$phase" = all ] || [ "$phase" = sieve ]; then
rm -rf "$out"; mkdir -p "$out"
"$cli" init "$out/corpus.db" >/dev/null
python3 "$here/gen.py" "$out/work" "$out/corpus.db"
cp "$out/work/samples.jsonl" "$out/samples.jsonl"
fi

smi() { nvidia-smi --query-gpu=timestamp,utilization.gpu --format=csv,noheader -i 0 -lms 100 > "$1" 2>/dev/null & echo $!; }
now() { date +%s.%N; }

if [ "$phase" = all ] || [ "$phase" = sieve ]; then
# Sieve: one worker on GPU 0, candidates verified 8 at a time (timing holds the GPU alone), fresh caches.
echo "== sieve-cli verify" >&2
smi_pid=$(smi "$out/sieve_smi.csv")
t0=$(now)
"$cli" verify "$out/corpus.db" --gpus 0 ${PARALLEL:+--parallel "$PARALLEL"} --json --cache-dir "$(mktemp -d /tmp/sieve-bench-cache.XXXXXX)" \
  > "$out/sieve.jsonl" 2> "$out/sieve.stderr" || { tail -20 "$out/sieve.stderr"; exit 1; }
t1=$(now)
kill "$smi_pid" 2>/dev/null || true
echo "{\"sieve_wall_s\": $(python3 -c "print($t1 - $t0)")}" > "$out/sieve_time.json"
tail -1 "$out/sieve.jsonl"
fi

if [ "$phase" = all ] || [ "$phase" = baseline ]; then
# Baseline: a fresh process per sample, its own empty Triton cache.
echo "== baseline.py" >&2
smi_pid=$(smi "$out/baseline_smi.csv")
t2=$(now)
TRITON_CACHE_DIR="$(mktemp -d /tmp/sieve-bench-triton.XXXXXX)" "$SIEVE_PYTHON" "$here/baseline.py" "$out/samples.jsonl" \
  "$out/baseline.jsonl" --device cuda:0 --budget-s "${BASELINE_BUDGET_S:-300}" > "$out/baseline.summary" \
  2> "$out/baseline.stderr"
t3=$(now)
kill "$smi_pid" 2>/dev/null || true
echo "{\"baseline_wall_s\": $(python3 -c "print($t3 - $t2)")}" > "$out/baseline_time.json"
cat "$out/baseline.summary"
fi

if [ "$phase" = all ] || [ "$phase" = report ]; then
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
t = {**json.load(open(out + "/sieve_time.json")), **json.load(open(out + "/baseline_time.json"))}
json.dump(t, open(out + "/times.json", "w"))
PY
python3 "$here/compare.py" "$out" | tee "$out/report.txt"
fi
