#!/usr/bin/env bash
# NVRTC compile benchmark: 500 generated kernels through `sieve-cli compile` (one process, in-process
# NVRTC) with a cold and then a warm cache, against `nvcc -cubin` on the same files (2 at a time).
# Usage: bench/nvrtc/run.sh [BUILD_DIR] [COUNT] [ARCH]     (from the repository root)
set -euo pipefail
BUILD=${1:-build/dev}
COUNT=${2:-500}
ARCH=${3:-sm_90}
CLI=$BUILD/app/sieve-cli
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
WORK=$(mktemp -d /tmp/sieve-nvrtc-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
python3 "$(dirname "$0")/gen_kernels.py" "$WORK/src" "$COUNT"

now() { date +%s.%N; }
t0=$(now); "$CLI" compile --arch "$ARCH" --cache-dir "$WORK/cache" --json "$WORK"/src/*.cu > "$WORK/cold.jsonl"; t1=$(now)
"$CLI" compile --arch "$ARCH" --cache-dir "$WORK/cache" --json "$WORK"/src/*.cu > "$WORK/warm.jsonl"; t2=$(now)

# nvcc: one process per file, two at a time; each records its own wall time.
ls "$WORK"/src/*.cu | xargs -P 2 -I{} bash -c 's=$(date +%s.%N); "$0" -cubin -arch='"$ARCH"' -o /dev/null "{}"; e=$(date +%s.%N); echo "$e - $s" | bc' "$NVCC" > "$WORK/nvcc.txt"
t3=$(now)

python3 - "$WORK" "$t0" "$t1" "$t2" "$t3" "$COUNT" "$ARCH" <<'PY'
import json, statistics, sys
work, t0, t1, t2, t3, count, arch = sys.argv[1], *map(float, sys.argv[2:6]), int(sys.argv[6]), sys.argv[7]
def per_unit(path):
    ms, cached, ok = [], 0, 0
    for line in open(path):
        for u in json.loads(line)["units"]:
            ms.append(u["millis"]); cached += u["from_cache"]; ok += u["status"] == "compiled"
    return ms, cached, ok
cold, cold_cached, cold_ok = per_unit(f"{work}/cold.jsonl")
warm, warm_cached, warm_ok = per_unit(f"{work}/warm.jsonl")
nvcc = [float(x) * 1000 for x in open(f"{work}/nvcc.txt")]
print(f"kernels: {count} ({arch}); compiled ok: cold {cold_ok}, warm {warm_ok}; warm cache hits {warm_cached}")
print(f"NVRTC cold : total {t1 - t0:7.1f} s wall (1 process), median {statistics.median(cold):7.1f} ms/kernel, p90 {statistics.quantiles(cold, n=10)[-1]:.1f} ms")
print(f"NVRTC warm : total {t2 - t1:7.1f} s wall (1 process), median {statistics.median(warm):7.2f} ms/kernel")
print(f"nvcc -cubin: total {t3 - t2:7.1f} s wall (2 parallel), median {statistics.median(nvcc):7.1f} ms/kernel")
print(f"ratios (median per kernel): nvcc/NVRTC-cold {statistics.median(nvcc) / statistics.median(cold):.1f}x, "
      f"nvcc/NVRTC-warm {statistics.median(nvcc) / statistics.median(warm):.0f}x, "
      f"cold/warm {statistics.median(cold) / statistics.median(warm):.0f}x")
PY
