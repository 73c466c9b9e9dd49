#!/usr/bin/env bash
# Sampler benchmark: 10,000 requests, 256 in flight, against the fake OpenAI-compatible server in a child
# process (100 ms "model time" per reply). REPEATS runs per configuration (default 5); prints one JSON
# line each (client CPU per request, wall time, load average), then the median CPU per configuration.
#   bench/sampler/run.sh [BUILD_DIR]      (default build/dev; needs the sieve_sampler_bench target)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/dev}
repeats=${REPEATS:-5}
cmake --build "$build" --target sieve_sampler_bench >/dev/null
bin="$build/tests/sieve_sampler_bench"
for args in "--mode client" "--mode client --stream" "--mode sampler"; do
  cpus=()
  for _ in $(seq "$repeats"); do
    # shellcheck disable=SC2086
    line=$("$bin" $args --requests 10000 --inflight 256 --latency-ms 100)
    echo "$line"
    cpus+=("$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["client_cpu_ms_per_request"])' "$line")")
  done
  printf '%s\n' "${cpus[@]}" | sort -g | awk -v a="$args" '{v[NR]=$1} END {printf "median client CPU per request (%s): %.3f ms over %d runs\n", a, v[int((NR+1)/2)], NR}'
done
