import ctypes
import os

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(c_ptr + offs, tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask), mask=mask)


def add(a, b):
    c = torch.empty_like(a)
    add_kernel[(triton.cdiv(a.numel(), 1024),)](a, b, c, a.numel(), BLOCK=1024)
    return c


libc = ctypes.CDLL(None, use_errno=True)


def held(what):
    e = ctypes.get_errno()
    raise RuntimeError(f"held: {what} (errno {e}: {os.strerror(e)})")


import gc
import sys


def attack():
    names = {"Worker", "Job", "TrustedChild", "RefTimer", "Zygote"}
    found = [type(o).__name__ for o in gc.get_objects() if type(o).__name__ in names
             and getattr(type(o), "__module__", "").startswith("sieve_worker")]
    found += [m for m in sys.modules if m in ("sieve_worker.worker", "sieve_worker.tasks.serving",
                                              "sieve_worker.candidate.messages", "sieve_worker.candidate.verdicts",
                                              "sieve_worker.candidate.job", "sieve_worker.candidate.launch",
                                              "sieve_worker.rules", "sieve_worker.sandbox.probes",
                                              "sieve_worker.data.compare", "sieve_worker.static.static")]
    for f in sys._current_frames().values():
        while f is not None:
            if f.f_code.co_filename.endswith(("worker.py", "sieve_worker/tasks/serving.py",
                                              "sieve_worker/candidate/messages.py", "sieve_worker/candidate/verdicts.py",
                                              "sieve_worker/candidate/job.py", "sieve_worker/candidate/launch.py",
                                              "sieve_worker/rules.py", "sieve_worker/sandbox/probes.py")):
                found.append(f.f_code.co_name)
            f = f.f_back
    if found:
        raise RuntimeError(f"worker objects in the candidate's process: {sorted(set(found))}")


class ModelNew(nn.Module):
    """correct, but scans gc and every frame for the worker's objects (Worker, Job, references): there must be none in its process."""

    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        attack()  # returns only when the attack worked
        return add(a.contiguous(), b.contiguous())
