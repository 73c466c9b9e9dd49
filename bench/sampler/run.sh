#!/usr/bin/env bash
# Sampler benchmark: 10,000 requests, 256 in flight, against the fake OpenAI-compatible server in a child
# process (100 ms "model time" per reply). Three repeats per configuration; prints one JSON line each.
#   bench/sampler/run.sh [BUILD_DIR]      (default build/dev; needs the sieve_sampler_bench target)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/dev}
cmake --build "$build" --target sieve_sampler_bench >/dev/null
bin="$build/tests/sieve_sampler_bench"
for args in "--mode client" "--mode client --stream" "--mode sampler"; do
  for i in 1 2 3; do
    # shellcheck disable=SC2086
    "$bin" $args --requests 10000 --inflight 256 --latency-ms 100
  done
done
