#!/usr/bin/env bash
# Import benchmark: sieve-cli import vs. a plain Python importer (py_import.py), side by side in one run,
# on N generated sample rows (about 3 KB of code each) in Sieve's JSONL format.
#   bench/import/run.sh [N]      N defaults to 1000000; data goes to $SIEVE_BENCH_DIR (/tmp/sieve-bench-import)
# Environment: SIEVE_CLI (default build/dev/app/sieve-cli), PYTHON (default python3).
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${1:-1000000}
data=${SIEVE_BENCH_DIR:-/tmp/sieve-bench-import}
cli=${SIEVE_CLI:-build/dev/app/sieve-cli}
py=${PYTHON:-python3}
[ -x "$cli" ] || { echo "build sieve-cli first ($cli)" >&2; exit 1; }

if [ "$(cat "$data/stamp" 2>/dev/null)" != "$n" ]; then
  echo "generating $n rows in $data ..." >&2
  "$py" bench/import/generate.py "$data" --samples "$n"
  echo "$n" > "$data/stamp"
fi
files=("$data/tasks.jsonl" "$data/samples.jsonl")
input_bytes=$(stat -c %s "$data/samples.jsonl")

# Warm the page cache so that both importers read from memory.
cat "${files[@]}" > /dev/null

measure() { # name, db, command...
  local name=$1 db=$2; shift 2
  rm -f "$db" "$db-wal" "$db-shm"
  "$cli" init "$db" > /dev/null
  /usr/bin/time -f "%e %U %S %M" -o "$db.time" "$@" > /dev/null 2> "$db.log" || {
    echo "$name failed:" >&2; cat "$db.log" >&2; exit 1; }
  sqlite3 "$db" "PRAGMA wal_checkpoint(TRUNCATE);" > /dev/null
  read -r wall user sys rss < "$db.time"
  local count size
  count=$(sqlite3 "$db" "SELECT count(*) FROM samples")
  size=$(( $(stat -c %s "$db") + $(stat -c %s "$db-wal" 2>/dev/null || echo 0) ))
  echo "$name $wall $user $sys $rss $count $size"
}

sieve_db=$data/sieve.sieve
py_db=$data/python.sieve
s=$(measure sieve "$sieve_db" "$cli" import "$sieve_db" --format sieve --quiet "${files[@]}")
p=$(measure python "$py_db" "$py" bench/import/py_import.py "$py_db" "${files[@]}")

echo "rows: $n  input: $input_bytes bytes  ($(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg))"
printf '%-8s %10s %10s %12s %14s %10s %14s\n' importer wall_s cpu_s rows/s rows/cpu_s rss_MiB bytes/sample
for r in "$s" "$p"; do
  read -r name wall user sys rss count size <<< "$r"
  [ "$count" = "$n" ] || echo "WARNING: $name imported $count rows, expected $n" >&2
  awk -v name="$name" -v w="$wall" -v u="$user" -v s="$sys" -v rss="$rss" -v c="$count" -v sz="$size" 'BEGIN {
    printf "%-8s %10.1f %10.1f %12.0f %14.0f %10.0f %14.0f\n", name, w, u + s, c / w, c / (u + s), rss / 1024, sz / c }'
done
# The importer's own CPU split per stage, from the report it stores in the imports table.
sqlite3 "$sieve_db" "SELECT report_json FROM imports ORDER BY id DESC LIMIT 1" | "$py" -c '
import json, sys
r = json.load(sys.stdin); c = r["cpu_seconds"]; n = max(r["samples_added"], 1); rebuilt = r.get("indices_rebuilt", False)
print("sieve stages, CPU us/row: " + ", ".join(f"{k} {v / n * 1e6:.1f}" for k, v in c.items()) +
      f"  (samples indices built at the end: {rebuilt})")'
read -r _ sw su ss _ _ _ <<< "$s"
read -r _ pw pu ps _ _ _ <<< "$p"
awk -v sw="$sw" -v pw="$pw" -v sc="$(echo "$su + $ss" | bc)" -v pc="$(echo "$pu + $ps" | bc)" 'BEGIN {
  printf "ratio (python / sieve): wall %.2fx, cpu %.2fx\n", pw / sw, pc / sc }'
