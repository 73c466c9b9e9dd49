#!/usr/bin/env bash
# The same KernelBench corpus verified twice (issue 31.3) in one device call: kb_run.sh builds the corpus once, two
# copies of it are verified one after the other (each `verify` with its own fresh compiler caches), each stopped
# after its share of END_S seconds, and kb_twice.py lists the samples both verified whose verdicts differ.
#
#   bench/verify/kb_twice.sh SIEVE_CLI PYTHON KB_CHECKOUT [OUT_DIR]
#
# END_S: seconds the whole script may take (default 545, a device command's 600 s less the transfers); the first run
# gets half of what is left after the build, the second the rest. OUT_DIR (default $OUT or /tmp/sieve-kb-twice) gets
# run1/, run2/ (kb_run.sh's folders) and twice.txt. Exit status: kb_twice.py's (1 when a verdict differs).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cli="${1:?usage: kb_twice.sh SIEVE_CLI PYTHON KB_CHECKOUT [OUT_DIR]}"
py="${2:?python}"
kb="${3:?KernelBench checkout}"
out="${4:-${OUT:-/tmp/sieve-kb-twice}}"
end="${END_S:-545}"
mkdir -p "$out"
PHASE=build bash "$here/kb_run.sh" "$cli" "$py" "$kb" "$out/run1" > "$out/build.out" 2>&1
echo "build rc=$? $SECONDS s"
rm -rf "$out/run2" && cp -a "$out/run1" "$out/run2"
for n in 1 2; do
  limit=$(( n == 1 ? (end - SECONDS - 100) / 2 : end - SECONDS - 40 ))
  SIEVE_LIMIT_S=$limit PHASE=sieve bash "$here/kb_run.sh" "$cli" "$py" "$kb" "$out/run$n" > "$out/sieve$n.out" 2>&1
  echo "run $n: limit $limit s, rc=$?, $(grep -c '"status"' "$out/run$n/sieve.jsonl") verdicts at $SECONDS s"
done
python3 "$here/kb_twice.py" "$out/run1/sieve.jsonl" "$out/run2/sieve.jsonl" > "$out/twice.txt" 2>&1
rc=$?
head -50 "$out/twice.txt"
exit $rc
