#!/usr/bin/env bash
# Builds sieve-cli without Qt (the `node` preset) and packs it with the shared libraries a bare GPU host
# may lack (simdjson, zstd, lz4, xxhash, sqlite3) into DEST/bin and DEST/lib, ready to be carried to the GPU
# machine. sieve-cli is linked with RUNPATH $ORIGIN/../lib, so it finds DEST/lib by itself and nothing
# leaks into the environment of the Python workers it starts (no LD_LIBRARY_PATH).
#
#   bench/verify/pack.sh [DEST]        (default DEST: build/verify-node)
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
dest="${1:-$repo/build/verify-node}"
cd "$repo"
cmake --preset node -DCMAKE_BUILD_RPATH='$ORIGIN/../lib' >/dev/null
cmake --build build/node -j"${JOBS:-2}" --target sieve-cli
rm -rf "$dest"; mkdir -p "$dest/bin" "$dest/lib"
cp build/node/app/sieve-cli "$dest/bin/"
ldd build/node/app/sieve-cli | awk '/simdjson|zstd|lz4|xxhash|sqlite3/ && $3 ~ /^\// {print $3}' | while read -r lib; do
  cp -L "$lib" "$dest/lib/"
done
echo "packed: $(ls "$dest/bin" "$dest/lib" | tr '\n' ' ')"
readelf -d "$dest/bin/sieve-cli" | grep -E "RUNPATH|RPATH" || true
ldd "$dest/bin/sieve-cli" | grep -E "simdjson|zstd|lz4|xxhash|sqlite3|not found" || true
