"""Sieve's verifier worker: reference outputs, static checks, sandboxed candidate children, verdicts."""
import sys

WORKER_VERSION = "1"


def log(*a):
    """The worker's diagnostics, on stderr: the engine keeps them in its log, never in a verdict."""
    print("[sieve_worker]", *a, file=sys.stderr, flush=True)
