#!/bin/sh
# Builds the dedup bench against the dev build's sieve_core (configure and build that first).
set -e
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build/dev}
cmake --build "$BUILD" --target sieve_core
g++ -std=c++20 -O2 -DNDEBUG -I"$ROOT" "$ROOT/bench/dedup/dedup_bench.cpp" "$BUILD/core/libsieve_core.a" \
    -lsimdjson -lxxhash -lzstd -llz4 -lsqlite3 -lcrypto -lpthread -o "${OUT:-/tmp/sieve_dedup_bench}"
echo "${OUT:-/tmp/sieve_dedup_bench}"
