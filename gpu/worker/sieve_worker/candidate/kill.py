"""Ending a candidate: its own module, so that the build scheduler (extensions/sched.py), which launch.py
imports, can kill a job without importing launch (no import cycle)."""
import os
import signal


def kill(job):
    """SIGKILL to the candidate: PID 1 of its PID namespace, so everything it started dies with it."""
    pid = job.pid
    if not pid:
        return
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
