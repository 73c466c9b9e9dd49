#!/bin/sh
# The red-team suite (issue #15): every answer of attacks/manifest.json through a real worker on the CPU
# (TRITON_INTERPRET); fails when any verdict differs from the manifest. Exit 77 (skipped) without the
# verifier's Python (SIEVE_PYTHON, SIEVE_VENV, then the default venv, as gpu/verify/pythonenv.cpp finds it).
if [ -n "$SIEVE_PYTHON" ]; then
    py=$SIEVE_PYTHON
elif [ -n "$SIEVE_VENV" ]; then
    py=$SIEVE_VENV/bin/python
else
    py=${XDG_CACHE_HOME:-$HOME/.cache}/sieve/venv/bin/python
fi
if ! "$py" -c 'import torch, triton, numpy' 2>/dev/null; then
    echo "red-team suite skipped: no interpreter with torch, triton and numpy at $py"
    exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../../../gpu/worker" || exit 1
exec "$py" -m sieve_worker.selftest "$here/attacks/manifest.json" --device "${SIEVE_REDTEAM_DEVICE:-cpu}" "$@"
