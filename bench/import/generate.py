#!/usr/bin/env python3
"""Writes a synthetic corpus in Sieve's JSONL format for the import benchmark.

tasks.jsonl: T tasks; samples.jsonl: N sample rows with about 3 KB of kernel-like Triton code each.
The code varies per row (names, block sizes, constants, comments) so that it compresses like real
answers rather than like one repeated string. Deterministic for a given seed.

usage: generate.py OUT_DIR [--samples N] [--tasks T] [--seed S]
"""
import argparse
import json
import os
import random

REFERENCE = '''import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.relu(x) * {scale}

N = {n}

def get_inputs():
    return [torch.randn(N)]

def get_init_inputs():
    return []
'''

KERNEL = '''import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def {kname}(x_ptr, y_ptr, n_elements, {extra}BLOCK_SIZE: tl.constexpr):
    # {comment1}
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    {xv} = tl.load(x_ptr + offsets, mask=mask, other={other})
    {acc} = tl.where({xv} > 0, {xv}, 0.0) * {scale}
    # {comment2}
    {acc} = {acc} + {bias}
    {acc} = {acc} - {bias}
    tl.store(y_ptr + offsets, {acc}, mask=mask)


@triton.jit
def {kname}_backward(g_ptr, x_ptr, dx_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    # {comment3}
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    g = tl.load(g_ptr + offsets, mask=mask, other=0.0)
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    dx = tl.where(x > 0, g * {scale}, 0.0)
    tl.store(dx_ptr + offsets, dx, mask=mask)


def {wname}(x: torch.Tensor) -> torch.Tensor:
    # {comment4}
    {yv} = torch.empty_like(x)
    n_elements = x.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
    {kname}[grid](x, {yv}, n_elements, {extra_arg}BLOCK_SIZE={block})
    return {yv}


class ModelNew(nn.Module):
    """{doc}"""

    def __init__(self):
        super().__init__()
        self.block = {block}
        self.num_warps = {warps}

    def forward(self, x):
        # {comment5}
        x = x.contiguous()
        return {wname}(x)
'''

WORDS = ("load store mask block program offset grid tile warp lane reduce scale bias row column stride "
         "pointer element vector fused kernel launch occupancy register shared memory coalesced boundary "
         "tail accumulate numerically stable broadcast contiguous layout").split()


_POOL = {}


def sentence(rng, n):
    # Drawn from a fixed pool of 4096 sentences per length: varied enough to compress like real text,
    # cheap enough to write a million rows in a few minutes.
    pool = _POOL.get(n)
    if pool is None:
        prng = random.Random(n)
        pool = _POOL[n] = [" ".join(prng.choice(WORDS) for _ in range(n)) for _ in range(4096)]
    return pool[rng.getrandbits(12)]


def ident(rng, prefix):
    return prefix + "_" + "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 8)))


def sample_code(rng):
    extra = rng.random() < 0.5
    code = KERNEL.format(
        kname=ident(rng, "relu"), wname=ident(rng, "launch"), xv=ident(rng, "x"), yv=ident(rng, "y"),
        acc=ident(rng, "acc"), other=rng.choice(["0.0", "0", "-1.0"]), scale=round(rng.uniform(0.5, 2), 4),
        bias=round(rng.uniform(-1, 1), 5), block=rng.choice([64, 128, 256, 512, 1024, 2048]),
        warps=rng.choice([1, 2, 4, 8]), extra="eps, " if extra else "", extra_arg="1e-6, " if extra else "",
        comment1=sentence(rng, 12), comment2=sentence(rng, 14), comment3=sentence(rng, 10),
        comment4=sentence(rng, 12), comment5=sentence(rng, 9), doc=sentence(rng, 25))
    # Pad with a varied comment block so rows average about 3 KB, as real answers do.
    pad = []
    while len(code) + sum(len(p) for p in pad) < 2950:
        pad.append("# " + sentence(rng, 11) + "\n")
    return "".join(pad) + code


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out_dir")
    ap.add_argument("--samples", type=int, default=1_000_000)
    ap.add_argument("--tasks", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    os.makedirs(args.out_dir, exist_ok=True)
    with open(os.path.join(args.out_dir, "tasks.jsonl"), "w") as f:
        for t in range(args.tasks):
            f.write(json.dumps({
                "task_id": f"bench/relu_{t}", "reference_code": REFERENCE.format(scale=1 + t / 1000, n=1024 + t),
                "dtype": "fp32", "atol": 1e-4, "rtol": 1e-4, "level": 1 + t % 3, "category": "activation",
                "backend": "triton", "target": "H100", "shapes": [{"N": 7}, {"N": 4096 + t}],
                "source": "synthetic", "license": "MIT"}) + "\n")
    with open(os.path.join(args.out_dir, "samples.jsonl"), "w") as f:
        for i in range(args.samples):
            f.write(json.dumps({
                "sample_id": f"s{i}", "task_id": f"bench/relu_{i % args.tasks}", "code": sample_code(rng),
                "model": "teacher-7b", "temperature": 0.8, "attempt": i // args.tasks % 16,
                "backend": "triton"}) + "\n")


if __name__ == "__main__":
    main()
