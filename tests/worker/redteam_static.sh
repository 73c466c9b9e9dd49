#!/bin/sh
# Runs the stage-0 red-team suite through a real worker (python -m sieve_worker.selftest). Needs the
# verifier's Python (SIEVE_PYTHON, else ~/.cache/sieve/venv); exit 77 (skipped) without one.
# usage: redteam_static.sh SOURCE_DIR [--device cuda:0]
src=$1; shift
py=${SIEVE_PYTHON:-${XDG_CACHE_HOME:-$HOME/.cache}/sieve/venv/bin/python}
if ! "$py" -c 'import torch, triton' 2>/dev/null; then
    echo "no verifier Python with torch and triton at $py: skipped"
    exit 77
fi
PYTHONPATH="$src/gpu/worker${PYTHONPATH:+:$PYTHONPATH}" exec "$py" -m sieve_worker.selftest \
    "$src/tests/data/verifier/redteam/static/manifest.json" "$@"
