#!/usr/bin/env bash
# The verifier benchmark on real KernelBench problems (issue #16): every level-1 and level-2 problem at its
# shipped shapes with our own answers (kb_answers.py) and KernelBench's own example answers, verified by
# `sieve-cli verify --gpus 0` with its DEFAULT options and by the KernelBench-style baseline (baseline.py)
# on the same GPU in one session, with peak host and GPU memory sampled in the background.
#
#   bench/verify/kb_run.sh SIEVE_CLI PYTHON KB_CHECKOUT [OUT_DIR]
#
# SIEVE_CLI    a sieve-cli (pack.sh builds one that runs on a bare GPU host)
# PYTHON       an interpreter with torch, triton and CUDA
# KB_CHECKOUT  a KernelBench checkout (KernelBench/level1, level2 and src/kernelbench/prompts); not ours
# OUT_DIR      default $OUT/kb or /tmp/sieve-bench-kb
#
# Environment: ONLY (a regular expression on problem file names), MAX_PROBLEMS (per level), LEVELS (1,2),
# PARALLEL (Sieve's --parallel; unset = sieve-cli's default, which is what the benchmark measures),
# SIEVE_ARGS (more verify options), CORPUS_ARGS (more kb_corpus.py options, e.g. `--leaderboard DIR
# --no-own-answers`: the answers of KernelBench's public leaderboard instead of ours), BASELINE_BUDGET_S (default 0 = every sample; the baseline starts no
# new sample after that), PHASE=all|build|tasks|sieve|baseline|report (same OUT_DIR each time), SIEVE_LIMIT_S
# (stop verify with SIGTERM after this many seconds; `verify` resumes the run when started again),
# RESUME=1 (sieve phase: append to the verdicts, wall time and memory samples of an earlier part of the run).
# To go on with a run on another machine, carry OUT_DIR whole: the baseline runs the files under problems/
# and answers/ (baseline.py refuses to start when they are missing).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cli="$(realpath "${1:?usage: kb_run.sh SIEVE_CLI PYTHON KB_CHECKOUT [OUT_DIR]}")"
py="${2:?python}"
kb="$(realpath "${3:?KernelBench checkout}")"
out="${4:-${OUT:+$OUT/kb}}"; out="${out:-/tmp/sieve-bench-kb}"
export SIEVE_PYTHON="$(command -v "$py")"
export SIEVE_WORKER_DIR="$repo/gpu/worker"
phase="${PHASE:-all}"
runs() { [ "$phase" = all ] || [ "$phase" = "$1" ]; }

"$SIEVE_PYTHON" -c 'import torch, triton; assert torch.cuda.is_available(), "no CUDA device"; print("torch", torch.__version__, "triton", triton.__version__, torch.cuda.get_device_name(0))'
# the runtime wall, built at install (setup.sh) and kept: here before any clock starts, its time printed apart
(cd "$SIEVE_WORKER_DIR" && PYTHONPATH=. "$SIEVE_PYTHON" -m sieve_worker --build-wall) >&2
nvidia-smi -L
mkdir -p "$out"

# Host memory in use (MemTotal - MemAvailable) and GPU 0's memory.used, sampled until stopped.
sample_mem() {
  local tag="$1"
  ( while :; do awk -v t="$(date +%s.%N)" '/MemTotal/{tot=$2}/MemAvailable/{av=$2}END{printf "%s,%d\n", t, (tot-av)/1024}' /proc/meminfo; sleep 0.5; done ) >> "$out/${tag}_host_mem.csv" 2>/dev/null &
  echo $! > "$out/${tag}_host_mem.pid"
  nvidia-smi --query-gpu=timestamp,memory.used,utilization.gpu --format=csv,noheader,nounits -i 0 -lms 500 >> "$out/${tag}_gpu_mem.csv" 2>/dev/null &
  echo $! > "$out/${tag}_gpu_mem.pid"
}
stop_mem() { for f in "$out/$1"_host_mem.pid "$out/$1"_gpu_mem.pid; do kill "$(cat "$f")" 2>/dev/null || true; rm -f "$f"; done; }
now() { date +%s.%N; }

if runs build; then
  rm -rf "$out/corpus.db"*
  python3 "$here/kb_corpus.py" "$kb" "$out" --levels "${LEVELS:-1,2}" ${ONLY:+--only "$ONLY"} ${MAX_PROBLEMS:+--max-problems "$MAX_PROBLEMS"} ${CORPUS_ARGS:-}
  "$cli" init "$out/corpus.db" >/dev/null
  { "$cli" import "$out/corpus.db" --format kernelbench "$out/problems" --quiet || [ $? -eq 3 ]; } | tee "$out/import.txt"
  { "$cli" import "$out/corpus.db" --format sieve "$out/corpus.sieve.jsonl" --quiet 2>&1 || [ $? -eq 3 ]; } | tail -12 | tee -a "$out/import.txt"  # exit 3: some rows refused (listed)
  # sample ids for the baseline's rows (compare joins on them)
  python3 - "$out" <<'PY'
import json, sqlite3, sys
out = sys.argv[1]
ids = dict((n, i) for i, n in sqlite3.connect(out + "/corpus.db").execute("SELECT id, name FROM samples"))
rows = [json.loads(l) for l in open(out + "/samples.jsonl")]
# A sample the import refused (its task has no get_inputs) or folded into an identical one is listed apart.
with open(out + "/samples.jsonl", "w") as f, open(out + "/samples_not_imported.jsonl", "w") as g:
    for r in rows:
        if r["name"] in ids:
            r["sample"] = ids[r["name"]]
            f.write(json.dumps(r) + "\n")
        else:
            g.write(json.dumps(r) + "\n")
PY
fi

if runs tasks; then
  # Task hygiene at the real shapes on the GPU, stored in the corpus (not timed with the verify run).
  echo "== sieve-cli tasks check" >&2
  t0=$(now)
  "$cli" tasks check "$out/corpus.db" --gpus 0 --json --quiet > "$out/tasks_check.jsonl" 2> "$out/tasks_check.stderr" || tail -5 "$out/tasks_check.stderr"
  echo "{\"tasks_check_wall_s\": $(python3 -c "print($(now) - $t0)")}" > "$out/tasks_check_time.json"
  tail -1 "$out/tasks_check.jsonl"
fi

if runs sieve; then
  echo "== sieve-cli verify --gpus 0 ${PARALLEL:+--parallel $PARALLEL} ${SIEVE_ARGS:-}${RESUME:+ (resumed)}" >&2
  if [ -z "${RESUME:-}" ]; then rm -f "$out"/sieve.jsonl "$out"/sieve_time.json "$out"/sieve_*_mem.csv; fi
  prev=0; [ -f "$out/sieve_time.json" ] && prev=$(python3 -c "import json; print(json.load(open('$out/sieve_time.json'))['sieve_wall_s'])")
  sample_mem sieve
  t0=$(now)
  ${SIEVE_LIMIT_S:+timeout -s TERM -k 60 "$SIEVE_LIMIT_S"} "$cli" verify "$out/corpus.db" --gpus 0 ${PARALLEL:+--parallel "$PARALLEL"} ${SIEVE_ARGS:-} --json \
    --cache-dir "$(mktemp -d /tmp/sieve-kb-cache.XXXXXX)" >> "$out/sieve.jsonl" 2>> "$out/sieve.stderr" || tail -20 "$out/sieve.stderr"
  t1=$(now)
  stop_mem sieve
  echo "{\"sieve_wall_s\": $(python3 -c "print($prev + $t1 - $t0)")}" > "$out/sieve_time.json"
  tail -1 "$out/sieve.jsonl"
fi

if runs baseline; then
  echo "== baseline.py" >&2
  sample_mem baseline
  t2=$(now)
  TRITON_CACHE_DIR="$(mktemp -d /tmp/sieve-kb-triton.XXXXXX)" TORCH_EXTENSIONS_DIR="$(mktemp -d /tmp/sieve-kb-ext.XXXXXX)" \
    "$SIEVE_PYTHON" "$here/baseline.py" "$out/samples.jsonl" "$out/baseline.jsonl" --device cuda:0 \
    --budget-s "${BASELINE_BUDGET_S:-0}" > "$out/baseline.summary" 2> "$out/baseline.stderr" || tail -5 "$out/baseline.stderr"
  t3=$(now)
  stop_mem baseline
  echo "{\"baseline_wall_s\": $(python3 -c "print($t3 - $t2)")}" > "$out/baseline_time.json"
  cat "$out/baseline.summary"
fi

if runs report; then
  python3 "$here/kb_compare.py" "$out" | tee "$out/report.txt"
fi
