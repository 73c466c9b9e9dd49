#!/usr/bin/env bash
# Export benchmark: a generated corpus of TASKS x SAMPLES rows (about 90 % passing), exported with
# and without token counting (median of RUNS runs each), then the same rows counted by the Python
# `tokenizers` library (encode in a loop and encode_batch), whose totals must equal Sieve's.
#   bench/export/run.sh [TASKS] [SAMPLES_PER_TASK] [RUNS]      (default 22000 5 3 -> ~99,000 rows)
# Environment: SIEVE_CLI (default build/dev/app/sieve-cli), PY (default the verifier venv's python).
set -euo pipefail
cd "$(dirname "$0")/../.."
tasks=${1:-22000}
per=${2:-5}
runs=${3:-3}
cli=${SIEVE_CLI:-build/dev/app/sieve-cli}
py=${PY:-${SIEVE_VENV:-$HOME/.cache/sieve/venv}/bin/python}
tok=tests/data/export/llama3-style.json
work=$(mktemp -d /tmp/sieve-bench-export.XXXXXX)
trap 'rm -rf "$work"' EXIT

"$cli" init "$work/c.sieve" >/dev/null
/usr/bin/time -f "generate: %e s" "$py" bench/export/gen_corpus.py "$work/c.sieve" "$tasks" "$per"

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
timeit() { # label, args...
  local label=$1; shift
  local times=()
  for _ in $(seq "$runs"); do
    rm -rf "$work/out"
    local s e
    s=$(date +%s.%N)
    "$cli" export "$work/c.sieve" "$work/out" "$@" >/dev/null
    e=$(date +%s.%N)
    times+=("$(echo "$e - $s" | bc)")
  done
  local med
  med=$(printf '%s\n' "${times[@]}" | median)
  local rows
  rows=$("$py" -c "import json,sys; m=json.load(open('$work/out/manifest.json')); print(m['counts']['train']['rows']+m['counts']['validation']['rows'])")
  echo "$label: rows=$rows median_s=$med rows_per_s=$(echo "$rows / $med" | bc) runs=[${times[*]}]"
}

timeit "export (no tokenizer)"
timeit "export (tokens, budget 32768)" --tokenizer "$tok" --max-tokens 32768
echo "python tokenizers on the same rows:"
"$py" bench/export/count_python.py "$work/out" "$tok"
RAYON_NUM_THREADS=1 "$py" bench/export/count_python.py "$work/out" "$tok"
ls -la "$work/out"
