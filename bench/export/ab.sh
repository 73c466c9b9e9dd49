#!/usr/bin/env bash
# A/B of two sieve-cli builds on one kept corpus, runs interleaved (A plain, B plain, A tokens, B tokens,
# repeated) so that both see the same load on a shared machine; medians of wall and CPU (user + sys),
# the load average at each start, and a check that both wrote the same bytes.
#   bench/export/ab.sh CLI_A CLI_B CORPUS [RUNS]       (default 3; a corpus from gen_corpus.py)
# The corpus gets one exports row per run (an export records itself), nothing else changes in it.
set -euo pipefail
cd "$(dirname "$0")/../.."
a=$1 b=$2 corpus=$3 runs=${4:-3}
tok="--tokenizer tests/data/export/llama3-style.json --max-tokens 32768"
work=$(mktemp -d /tmp/sieve-ab-export.XXXXXX)
trap 'rm -rf "$work"' EXIT
median() { sort -n | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
for i in $(seq "$runs"); do
  for mode in plain tokens; do
    for side in A B; do
      cli=$a; [ "$side" = B ] && cli=$b
      args=""; [ "$mode" = tokens ] && args=$tok
      rm -rf "$work/out"
      load=$(cut -d' ' -f1 /proc/loadavg)
      # shellcheck disable=SC2086
      nice -n 5 /usr/bin/time -f "%e %U %S" -o "$work/time" "$cli" export "$corpus" "$work/out" $args >/dev/null
      read -r wall user sys <"$work/time"
      digest=$(cat "$work/out/train.jsonl" "$work/out/validation.jsonl" | sha256sum | cut -c1-16)
      echo "$side $mode run $i: wall $wall s, cpu $(echo "$user + $sys" | bc) s (user $user, sys $sys), load $load, data $digest" |
        tee -a "$work/log"
    done
  done
done
for mode in plain tokens; do
  for side in A B; do
    w=$(grep "^$side $mode " "$work/log" | sed 's/.*wall \([0-9.]*\) s.*/\1/' | median)
    c=$(grep "^$side $mode " "$work/log" | sed 's/.*cpu \([0-9.]*\) s.*/\1/' | median)
    echo "median $side $mode: wall $w s, cpu $c s"
  done
done
if [ "$(grep -o 'data [0-9a-f]*' "$work/log" | sort -u | wc -l)" = 1 ]; then echo "same bytes in every run"; else echo "OUTPUT DIFFERS"; fi
