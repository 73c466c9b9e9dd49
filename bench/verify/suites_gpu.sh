#!/usr/bin/env bash
# The verifier's own suites on a GPU in one device call (issue 30's done-when: the red-team suites with and
# without stage 0 on both machines; issue 31's inputs on KernelBench's sizes): what the label-gpu ctests and the
# CPU-labelled selftests run, for a machine with the venv but no build tree (the device has no Qt, no cmake build).
# Every wall2/wall fixture has a `_static` twin, so each manifest runs both ways.
#
#   bench/verify/suites_gpu.sh PYTHON [OUT_DIR]
#
# Phase 1, side by side (small tasks): the wall red teams (rounds 1-7), the runtime sandbox red team (no wall), the
# data-path red team, the main fixtures and the builder's CUDA e2e. Phase 2 alone (each worker assumes the whole
# GPU, and these tasks are 6.4 GB): the inputs manifest (copy kernels on the ReLU family, tail bugs) and the GB
# data path. SUITE_LIMIT_S bounds each (default 260 s); INPUTS_LIMIT_S and DATA_LIMIT_S the last two (default
# SUITE_LIMIT_S), so that the whole call fits a device command's limit; WALL2_PARALLEL wall2's workers (default 4);
# INPUTS_ONLY fixture-name prefixes of the inputs manifest to run (space-separated; default all), INPUTS_PARALLEL
# its workers; DATA_LIMIT_S=0 leaves the GB data path out; SUITES the phase-1 suites to run (space-separated names:
# wall wall2 runtime data main builder_e2e, the default; empty: none). First adds this host's wall offsets to the ctypes fixtures
# (redteam/wall2/known_offsets.py, which builds the wall). Prints one line per suite and the FAIL/GAP lines; the logs
# go to OUT_DIR/suites.tgz (one file: the device returns few).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
py="${1:?usage: suites_gpu.sh PYTHON [OUT_DIR]}"
out="${2:-${OUT:-/tmp}/suites}"
dev="${DEVICE:-cuda:0}"
limit="${SUITE_LIMIT_S:-260}"
inputs_limit="${INPUTS_LIMIT_S:-$limit}"
data_limit="${DATA_LIMIT_S:-$limit}"
data="$root/tests/data/verifier"
mkdir -p "$out/logs"
cd "$root/gpu/worker"

# the ctypes fixtures need this host's wall offsets (redteam/wall2 README): added to their KNOWN tables, and printed
env PYTHONPATH=. "$py" "$data/redteam/wall2/known_offsets.py" | sed 's/^/offsets: /' | cut -c1-200

suite() {  # name, then the selftest's arguments (LIMIT: this suite's seconds)
  local name="$1"; shift
  local t0=$SECONDS
  timeout "${LIMIT:-$limit}" env PYTHONPATH=. "$py" -m sieve_worker.selftest "$@" --device "$dev" > "$out/logs/$name.log" 2>&1
  local rc=$?
  echo "$name: rc=$rc $((SECONDS - t0)) s: $(grep -E 'fixtures as expected' "$out/logs/$name.log" | tail -1)"
}

phase1=" ${SUITES-wall wall2 runtime data main builder_e2e} "
on() { [[ "$phase1" == *" $1 "* ]]; }
on wall && suite wall "$data/redteam/wall/manifest.json" &
on wall2 && suite wall2 "$data/redteam/wall2/manifest.json" --parallel "${WALL2_PARALLEL:-4}" &
on runtime && suite runtime "$data/redteam/runtime/manifest.json" --no-runtime-wall &
on data && suite data "$data/redteam/data/manifest.json" --only data_ --only proof_ --only judge_ &
on main && suite main "$data/manifest.json" &
on builder_e2e && suite builder_e2e "$data/builder/e2e/manifest.json" &
wait
only=()
for p in ${INPUTS_ONLY:-}; do only+=(--only "$p"); done
LIMIT="$inputs_limit" suite inputs "$data/inputs/manifest.json" ${INPUTS_PARALLEL:+--parallel "$INPUTS_PARALLEL"} "${only[@]}"
if [ "$data_limit" != 0 ]; then
  t0=$SECONDS
  timeout "$data_limit" env PYTHONPATH=. "$py" "$root/tests/worker/gpu_data_path.py" --gb 2 --jobs 3 --parallel 3 \
    --budget-gb 6 > "$out/logs/gpu_data_path.log" 2>&1
  echo "gpu_data_path: rc=$? $((SECONDS - t0)) s: $(tail -1 "$out/logs/gpu_data_path.log")"
fi
grep -hE '^(FAIL|GAP) ' "$out"/logs/*.log | cut -c1-160
tar -czf "$out/suites.tgz" -C "$out" logs && rm -rf "$out/logs"
