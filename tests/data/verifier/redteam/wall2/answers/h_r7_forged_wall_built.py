"""As h_r7_forged_built_early_seed, with the line the worker now waits for: the wall's own end of the free phase,
{"t": "wall", "kind": "built"}, forged on the result pipe as soon as the call's command arrives, so that the worker
sends the sealed seed before the answer's constructor runs. Against messages.on_wall (the wall writes its own line at
the real transition: two for one call) and Wall.hold (the Child's shadowed `command` is seen at that transition):
WALL_TAMPERED either way."""
import collections
import functools
import gc
import itertools
import json
import operator
import os
import sys

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(src, dst, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    tl.store(dst + o, tl.load(src + o, mask=m), mask=m)


STASH = {"x": None, "y": None}
CHILD = []


def arm(child, sealed, si, input_set):
    taskref = sys.modules["sieve_worker.tasks.taskref"]
    task = sys.modules["sieve_task"]
    STASH["x"] = None
    real_free = type(child).wall_free.__get__(child)
    draw = functools.partial(taskref.set_inputs, task, sealed, child.device, input_set)
    child.wall_free = functools.partial(collections.deque, itertools.chain(
        map(functools.partial(STASH.__setitem__, "x"),
            map(operator.itemgetter(0), itertools.starmap(operator.call, [(draw,)]))),
        itertools.starmap(operator.call, [(real_free,)])), 0)
    child.seed_for = {si: sealed}.get  # the harness asks no more: the seed is already here


def wrap(child):
    real = child.command

    def command():
        cmd = real()
        if cmd.get("do") == "call":
            try:
                os.write(child.fd, (json.dumps({"t": "wall", "kind": "built"}) + "\n").encode())
                nxt = real()
                if nxt.get("do") == "seed":
                    arm(child, nxt["seed"], cmd["si"], cmd.get("set"))
                else:
                    print("r7: worker sent", nxt.get("do"), file=sys.stderr)
            except Exception as e:
                print("r7 arm failed:", repr(e), file=sys.stderr)
        return cmd
    child.command = command
    child.command.__wrapped_by_answer__ = True


for _o in gc.get_objects():  # at import, before the first call's command is read
    if type(_o).__name__ == "Child" and type(_o).__module__.endswith("candidate.child"):
        if not hasattr(_o.command, "__wrapped_by_answer__"):
            wrap(_o)
        CHILD[:] = [_o]


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        x = STASH.get("x")
        if x is not None:  # the free phase: compute on what the harness's frames drew with the call's seed
            STASH["y"] = torch.softmax(x, dim=-1)
            STASH["x"] = None
        for c in CHILD:
            c.__dict__.pop("wall_free", None)

    def load_state_dict(self, *a, **k):  # the kept instance's later calls: compute here (still the free phase)
        x = STASH.get("x")
        if x is not None:
            STASH["y"] = torch.softmax(x, dim=-1)
            STASH["x"] = None
        for c in CHILD:
            c.__dict__.pop("wall_free", None)
        return super().load_state_dict(*a, **k)

    def forward(self, x):
        for c in CHILD:
            c.__dict__.pop("seed_for", None)
        src = STASH.get("y")
        src = src if src is not None and src.shape == x.shape else x
        out = torch.empty_like(x)
        n = x.numel()
        copy_kernel[(triton.cdiv(n, 256),)](src, out, n, BLOCK=256)
        return out
