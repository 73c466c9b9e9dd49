#!/usr/bin/env python3
"""Fills an empty Sieve corpus (made by `sieve-cli init`) with a generated corpus for the export
benchmark: TASKS tasks with SAMPLES samples each (kernel-like code, reasoning prose, varied
identifiers and numbers so the tokenizer's word cache does not make every row free), about 90 % of
them passing. Payloads are zstd-packed like Sieve's own (libzstd through ctypes).

Usage: gen_corpus.py DB TASKS SAMPLES_PER_TASK [SEED]
"""
import ctypes
import ctypes.util
import random
import sqlite3
import sys

zstd = ctypes.CDLL(ctypes.util.find_library("zstd") or "libzstd.so.1")
zstd.ZSTD_compressBound.restype = ctypes.c_size_t
zstd.ZSTD_compress.restype = ctypes.c_size_t
zstd.ZSTD_compress.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int]
zstd.ZSTD_isError.argtypes = [ctypes.c_size_t]


def pack(text):
    raw = text.encode("utf-8")
    if len(raw) < 96:
        return b"r" + raw
    cap = zstd.ZSTD_compressBound(len(raw))
    buf = ctypes.create_string_buffer(cap)
    n = zstd.ZSTD_compress(buf, cap, raw, len(raw), 3)
    if zstd.ZSTD_isError(n):
        raise RuntimeError("zstd failed")
    return b"z" + buf.raw[:n]


OPS = ["relu", "gelu", "silu", "softmax", "log_softmax", "rms_norm", "layer_norm", "matmul", "bmm", "conv2d",
       "sum", "mean", "max", "cumsum", "cross_entropy", "attention", "rope", "swiglu", "dropout", "embedding"]
CATS = ["activation", "reduction", "normalization", "gemm", "conv", "attention", "elementwise", "loss"]
WORDS = ("block row column stride pointer mask offset tile warp thread program load store accumulate reduce "
         "broadcast contiguous layout memory bandwidth latency register shared cache coalesced vector fused "
         "numerically stable maximum exponent normalise scale bias epsilon variance mean sum product kernel "
         "launch grid occupancy autotune pipeline stage dtype float half precision rounding overflow").split()


def ident(rng):
    return "_".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3))) + str(rng.randint(0, 99))


def reference(rng, op, i):
    dims = [rng.choice([16, 32, 64, 128, 256, 512, 1024, 4096]) for _ in range(rng.randint(2, 4))]
    return f'''import torch
import torch.nn as nn


class Model(nn.Module):
    """Reference for {op} #{i}: {' '.join(rng.choice(WORDS) for _ in range(12))}."""

    def __init__(self, dim={dims[-1]}):
        super().__init__()
        self.dim = dim
        self.weight = nn.Parameter(torch.randn(dim))

    def forward(self, x):
        y = torch.{op if op in ("relu", "softmax", "sum", "mean", "cumsum") else "relu"}(x) * self.weight
        return y + {rng.random():.5f}


batch_size = {dims[0]}
dim = {dims[-1]}


def get_inputs():
    return [torch.randn({", ".join(map(str, dims))})]


def get_init_inputs():
    return [dim]
'''


def kernel(rng, op):
    names = [ident(rng) for _ in range(6)]
    body = "\n".join(
        f"    {names[k % 6]} = tl.load({names[(k + 1) % 6]}_ptr + offs * {rng.randint(1, 64)}, mask=mask, other={rng.random():.3f})"
        for k in range(rng.randint(4, 14)))
    return f'''import torch
import triton
import triton.language as tl


@triton.jit
def {op}_{names[0]}_kernel({", ".join(n + "_ptr" for n in names)}, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offs = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
{body}
    result = tl.where({names[1]} > 0, {names[1]}, {names[2]} * {rng.random():.4f})
    tl.store({names[0]}_ptr + offs, result, mask=mask)


class ModelNew(torch.nn.Module):
    def __init__(self, dim={rng.choice([256, 512, 1024, 2048])}):
        super().__init__()
        self.dim = dim
        self.weight = torch.nn.Parameter(torch.randn(dim))

    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        grid = (triton.cdiv(n, {rng.choice([128, 256, 512, 1024])}),)
        {op}_{names[0]}_kernel[grid](out, x, self.weight, out, x, out, n, BLOCK_SIZE={rng.choice([128, 256, 512, 1024])})
        return out
'''


def reasoning(rng, op):
    sentences = []
    for _ in range(rng.randint(8, 30)):
        words = [rng.choice(WORDS) for _ in range(rng.randint(6, 18))]
        if rng.random() < 0.3:
            words.insert(rng.randint(0, len(words)), str(rng.randint(1, 65536)))
        if rng.random() < 0.2:
            words.insert(rng.randint(0, len(words)), ident(rng))
        sentences.append(" ".join(words).capitalize() + rng.choice([".", ".", "?", ";", ":"]))
    return f"Let me think about {op}. " + " ".join(sentences) + "\nSo the plan is: one program per block, mask the tail."


def main():
    db, tasks, per_task = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    rng = random.Random(seed)
    con = sqlite3.connect(db)
    con.execute("PRAGMA synchronous=OFF")
    cur = con.cursor()
    sid = 0
    for t in range(1, tasks + 1):
        op = rng.choice(OPS)
        name = f"{op}_{t:06d}"
        cur.execute("INSERT INTO tasks(id, task_key, name, level, category, backend, target, created_at) "
                    "VALUES(?,?,?,?,?,?,?,0)", (t, name, name, rng.randint(1, 3), rng.choice(CATS), "triton", "H200"))
        cur.execute("INSERT INTO task_payloads(task_id, reference_code) VALUES(?,?)", (t, pack(reference(rng, op, t))))
        for a in range(1, per_task + 1):
            sid += 1
            status = "PASS" if rng.random() < 0.9 else rng.choice(["FAIL_MISMATCH", "FAIL_COMPILE", "FAIL_STATIC"])
            cur.execute("INSERT INTO samples(id, sample_key, name, task_id, backend, origin, model, attempt, has_answer, "
                        "status, speedup, created_at) VALUES(?,?,?,?,?,?,?,?,1,?,?,0)",
                        (sid, f"k{sid}", f"{name}-a{a}", t, "triton", "bench", rng.choice(["teacher-a", "teacher-b"]),
                         a, status, round(rng.uniform(0.5, 3.0), 3)))
            cur.execute("INSERT INTO sample_payloads(sample_id, code, reasoning) VALUES(?,?,?)",
                        (sid, pack(kernel(rng, op)), pack(reasoning(rng, op))))
    con.commit()
    con.close()
    print(f"{tasks} tasks, {sid} samples")


if __name__ == "__main__":
    main()
