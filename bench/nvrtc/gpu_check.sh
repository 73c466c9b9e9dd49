#!/usr/bin/env bash
# For the GPU machine (the lead runs this; helpers do not use the device): builds sieve-cli and the GPU
# tests, lists the devices, runs the native raw-CUDA launcher tests, then one end-to-end cuda-run with
# numpy-made input checked against a numpy reference, timed with CUDA events.
# Usage: bench/nvrtc/gpu_check.sh [BUILD_DIR]        (from the repository root)
set -euo pipefail
BUILD=${1:-build/gpu}
PY=${SIEVE_PYTHON:-python3}
cmake --preset dev -B "$BUILD" -DSIEVE_BUILD_GUI=OFF >/dev/null
cmake --build "$BUILD" -j"$(nproc)" --target sieve-cli sieve_gpu_tests
"$BUILD"/app/sieve-cli devices
ctest --test-dir "$BUILD" -R RawCudaLaunch --output-on-failure
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
"$PY" -c "import numpy as np; np.save('$WORK/x.npy', np.random.default_rng(0).standard_normal((4096, 4096), dtype=np.float32))"
"$BUILD"/app/sieve-cli cuda-run tests/data/cuda/raw_rmsnorm.cu --input "$WORK/x.npy" --out "$WORK/out" --time 50 --json
"$PY" - "$WORK" <<'PY'
import sys, numpy as np
w = sys.argv[1]; x = np.load(f"{w}/x.npy").astype(np.float64); y = np.load(f"{w}/out/out0.npy")
ref = x / np.sqrt((x * x).mean(axis=1, keepdims=True) + 1e-5)
err = np.abs(y - ref).max(); print(f"rmsnorm 4096x4096: max abs error {err:.2e}"); assert err < 1e-4
PY
