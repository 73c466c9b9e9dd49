#!/bin/sh
# Dedup benchmark: Sieve vs datasketch's MinHashLSH on generated kernel corpora, scored against exact
# ground truth. Everything large goes under $WORK (default /tmp/sieve_dedup_bench_data), not the repo.
#   bench/dedup/run.sh [N ...]        default: 100000 1000000
# For each N: generate, run Sieve with /usr/bin/time -v (timing and max RSS; --no-truth so that the
# ground-truth join does not count), run again for the ground truth and quality (exact join up to 1e5
# files, family truth above), then datasketch on the same shingle sets (on the first DS_LIMIT files when
# N > DS_LIMIT; default 100000).
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=${WORK:-/tmp/sieve_dedup_bench_data}
PY=${PY:-/root/.cache/sieve/venv/bin/python}
DS_LIMIT=${DS_LIMIT:-100000}
[ $# -eq 0 ] && set -- 100000 1000000
mkdir -p "$WORK"
BIN=$(OUT="$WORK/dedup_bench" sh "$HERE/build.sh" | tail -1)
for N in "$@"; do
  D="$WORK/n$N"
  mkdir -p "$D"
  [ -f "$D/corpus.jsonl" ] || python3 "$HERE/gen_corpus.py" "$D/corpus.jsonl" "$N" --seed "$N"
  echo "== $N files: load average $(cut -d' ' -f1-3 /proc/loadavg)"
  /usr/bin/time -v "$BIN" "$D/corpus.jsonl" "$D" --no-truth > "$D/sieve_timing.json" 2> "$D/sieve_timing.time"
  cat "$D/sieve_timing.json"
  grep -E "Maximum resident|Elapsed|User time|System time" "$D/sieve_timing.time"
  TRUTH=""
  [ "$N" -gt 100000 ] && TRUTH="--family-truth" # the exact all-pairs join does not fit at 1e6
  "$BIN" "$D/corpus.jsonl" "$D" $TRUTH > "$D/sieve_truth.json"
  grep -E "truth|quality" "$D/sieve_truth.json"
  LIMIT=""
  [ "$N" -gt "$DS_LIMIT" ] && LIMIT="--limit $DS_LIMIT"
  "$PY" "$HERE/datasketch_bench.py" "$D" $LIMIT > "$D/datasketch.json"
  cat "$D/datasketch.json"
done
