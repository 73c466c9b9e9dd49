#!/usr/bin/env bash
# Sieve's GPU verdicts on the real answers stage 0 accepts (issue 31.5), then real_table.py's two tables with
# them: `sieve-cli verify --gpus 0` with default options (and POLICY) over the subset real_answers.py --subset
# wrote, through kb_run.sh's sieve phase (memory sampling, wall time), stopped after SIEVE_LIMIT_S seconds
# (default 230: with the 60 s grace of its kill the command ends within 300 s); the verdicts so far are kept,
# the answers without one stay STAGE0_OK in the table.
#
#   bench/verify/real_gpu.sh SIEVE_CLI PYTHON DATA_DIR [OUT_DIR]
#
# DATA_DIR  real_answers.py's folder; only answers.jsonl, stage0.jsonl and corpus.gpu.POLICY.sieve.jsonl are
#           read, so a copy of those three files is enough (the GPU machine has no network)
# OUT_DIR   default $OUT/real or /tmp/sieve-real: corpus.db, sieve.jsonl, the memory samples, real_table.md
# POLICY    strict (default) or kernelbench: the stage-0 policy of the subset and of verify
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cli="$(realpath "${1:?usage: real_gpu.sh SIEVE_CLI PYTHON DATA_DIR [OUT_DIR]}")"
py="${2:?python}"
data="$(realpath "${3:?DATA_DIR}")"
out="${4:-${OUT:+$OUT/real}}"; out="${out:-/tmp/sieve-real}"
policy="${POLICY:-strict}"
corpus="$data/corpus.gpu.$policy.sieve.jsonl"
for f in "$data/answers.jsonl" "$data/stage0.jsonl" "$corpus"; do
  [ -f "$f" ] || { echo "real_gpu.sh: $f is missing (real_answers.py OUT --subset OUT/stage0.jsonl --policy $policy)" >&2; exit 2; }
done
mkdir -p "$out"
rm -f "$out"/corpus.db*
"$cli" init "$out/corpus.db" >/dev/null
{ "$cli" import "$out/corpus.db" --format sieve "$corpus" --quiet 2>&1 || [ $? -eq 3 ]; } | tail -5  # 3: some rows refused (listed)
SIEVE_LIMIT_S="${SIEVE_LIMIT_S:-230}" PHASE=sieve SIEVE_ARGS="--policy $policy ${SIEVE_ARGS:-}" \
  bash "$here/kb_run.sh" "$cli" "$py" "$data" "$out"
python3 "$here/real_table.py" "$data" --verdicts "$data/stage0.jsonl" "$out/sieve.jsonl" --policy "$policy" \
  > "$out/real_table.md"
sed -n '1,/^### 1/p' "$out/real_table.md"
grep -A40 '^### 2' "$out/real_table.md"
cat "$out/sieve_time.json"
