#!/bin/sh
# The longer campaigns of issue 34 (scheduled, not a ctest; figures in bench/RESULTS.md): N kills of each
# process of the verification tree during one `sieve-cli verify --cpu`, then a plain re-run, compared with a
# clean run; then M memory hogs at once while MemAvailable is sampled every 0.2 s.
# Usage: tests/campaigns/kill.sh SIEVE_CLI [--kills N] [--copies C] [--roles cli,worker,...] [--hogs M]
set -eu
cli=${1:?usage: kill.sh SIEVE_CLI [options]}
shift
py=${SIEVE_PYTHON:-$HOME/.cache/sieve/venv/bin/python}
exec "$py" "$(dirname "$0")/long.py" --cli "$cli" "$@"
