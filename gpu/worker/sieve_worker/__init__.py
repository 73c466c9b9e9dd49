"""Sieve's verifier worker: reference outputs, static checks, sandboxed candidate children, verdicts."""
WORKER_VERSION = "1"
