#!/usr/bin/env bash
# Export benchmark: a generated corpus of TASKS x SAMPLES rows (about 90 % passing), exported without
# and with token counting (median of RUNS runs each; wall and CPU seconds), then, unless
# COMPARE=0, the same rows counted by the Python `tokenizers` library (encode in a loop and
# encode_batch, CPU seconds), whose totals must equal Sieve's.
#   bench/export/run.sh [TASKS] [SAMPLES_PER_TASK] [RUNS]     (default 22000 5 3: ~99,000 rows)
# Environment: SIEVE_CLI (default build/dev/app/sieve-cli), PY (default the verifier venv's python),
#              COMPARE (default 1).
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
echo "corpus: $(du -h "$work/c.sieve" | cut -f1)"

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
timeit() { # label, args...
  local label=$1; shift
  local walls=() cpus=()
  for _ in $(seq "$runs"); do
    rm -rf "$work/out"
    /usr/bin/time -f "%e %U %S" -o "$work/time" "$cli" export "$work/c.sieve" "$work/out" "$@" >/dev/null
    read -r wall user sys <"$work/time"
    walls+=("$wall")
    cpus+=("$(echo "$user + $sys" | bc)")
  done
  local wall cpu rows bytes
  wall=$(printf '%s\n' "${walls[@]}" | median)
  cpu=$(printf '%s\n' "${cpus[@]}" | median)
  rows=$("$py" -c "import json; m=json.load(open('$work/out/manifest.json')); print(m['counts']['train']['rows']+m['counts']['validation']['rows'])")
  bytes=$(cat "$work/out/train.jsonl" "$work/out/validation.jsonl" | wc -c)
  echo "$label: rows=$rows output_MB=$((bytes / 1000000)) wall_s=$wall (rows/s $(echo "$rows / $wall" | bc))" \
       "cpu_s=$cpu (rows/s $(echo "$rows / $cpu" | bc)) runs_wall=[${walls[*]}] runs_cpu=[${cpus[*]}]"
}

timeit "export, no tokenizer"
timeit "export, tokens + budget 32768" --tokenizer "$tok" --max-tokens 32768
if [ "${COMPARE:-1}" = 1 ]; then
  # Like for like: Sieve's tokenizer over exactly the texts Python counts (prompts on every row).
  g++ -O2 -std=c++20 -I. bench/export/count_cpp.cpp build/dev/core/libsieve_core.a -lsimdjson -lxxhash -lzstd -llz4 -lsqlite3 -lcrypto \
      -o "$work/count_cpp"
  echo "sieve tokenizer on the same texts:"
  "$work/count_cpp" "$work/out" "$tok"
  echo "python tokenizers on the same rows (encode loop, then encode_batch):"
  /usr/bin/time -f "python process: %e s wall, %U s user, %S s sys" "$py" bench/export/count_python.py "$work/out" "$tok"
fi
