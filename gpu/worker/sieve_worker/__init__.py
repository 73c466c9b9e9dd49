"""Sieve's verifier worker: reference outputs, static checks, sandboxed candidate children, verdicts."""
import os
import sys

WORKER_VERSION = "1"
# the folder that holds this package: the PYTHONPATH of the worker's own fresh interpreters (zygote, task
# servers, builders) and the root of the runtime wall's C++ (wall/)
WORKER_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def log(*a):
    """The worker's diagnostics, on stderr: the engine keeps them in its log, never in a verdict."""
    print("[sieve_worker]", *a, file=sys.stderr, flush=True)
