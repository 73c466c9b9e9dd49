#!/usr/bin/env python3
"""Generates the verifier benchmark: 40 KernelBench-style tasks (8 each of elementwise, row reduction,
softmax, RMSNorm and small matmul) with 5 Triton answers per task (3 correct variants, 2 with realistic
bugs) = 200 samples, written
  - into a Sieve corpus (created with `sieve-cli init` beforehand) for `sieve-cli verify`, and
  - as files plus samples.jsonl under OUT for bench/verify/baseline.py.

    python3 gen.py OUT_DIR CORPUS.db

Pure standard library (sqlite3): payloads are stored with Sieve's raw payload encoding ('r' + text).
"""
import hashlib
import json
import os
import sqlite3
import sys
import time

# ---------------------------------------------------------------------------------------------------------
# Elementwise: out = f(x). (name, torch expression on x, triton expression on x)
ELEMENTWISE = [
    ("relu", "torch.relu(x)", "tl.maximum(x, 0.0)"),
    ("sigmoid", "torch.sigmoid(x)", "1.0 / (1.0 + tl.exp(-x))"),
    ("scale_shift", "x * 1.5 + 0.25", "x * 1.5 + 0.25"),
    ("square", "x * x", "x * x"),
    ("abs", "torch.abs(x)", "tl.abs(x)"),
    ("leaky_relu", "torch.nn.functional.leaky_relu(x, 0.1)", "tl.where(x > 0, x, 0.1 * x)"),
    ("silu", "x * torch.sigmoid(x)", "x / (1.0 + tl.exp(-x))"),
    ("softplus_lite", "torch.log(1.0 + torch.exp(x))", "tl.log(1.0 + tl.exp(x))"),
]

# Row reductions over the last dim: (name, torch expr on x -> [M], triton expr on masked row x, fill)
REDUCTIONS = [
    ("row_sum", "x.sum(dim=1)", "tl.sum(x, axis=0)", "0.0"),
    ("row_max", "x.max(dim=1).values", "tl.max(x, axis=0)", "-float('inf')"),
    ("row_min", "x.min(dim=1).values", "tl.min(x, axis=0)", "float('inf')"),
    ("row_mean", "x.mean(dim=1)", "tl.sum(x, axis=0) / N", "0.0"),
    ("row_sumsq", "(x * x).sum(dim=1)", "tl.sum(x * x, axis=0)", "0.0"),
    ("row_l1", "x.abs().sum(dim=1)", "tl.sum(tl.abs(x), axis=0)", "0.0"),
    ("row_meansq", "(x * x).mean(dim=1)", "tl.sum(x * x, axis=0) / N", "0.0"),
    ("row_scaled_sum", "x.sum(dim=1) * 0.5", "tl.sum(x, axis=0) * 0.5", "0.0"),
]

SOFTMAX_SHAPES = [(256, 1000), (512, 777), (128, 3000), (1024, 500), (64, 4000), (300, 1500), (2048, 250), (96, 2047)]
RMSNORM_SHAPES = [(256, 1000), (512, 768 + 5), (128, 3000), (1024, 500), (64, 4000), (300, 1500), (2048, 250), (96, 2047)]
MATMUL_SHAPES = [(64, 64, 64), (128, 96, 80), (200, 128, 72), (96, 256, 96), (256, 64, 128), (48, 160, 200),
                 (128, 128, 128), (180, 100, 60)]
ELEMENTWISE_N = [1 << 20, (1 << 20) + 3, 3 * 100003, 1 << 22, 999_999, 65_537, 1 << 18, 2_000_003]
REDUCTION_SHAPES = [(1024, 1000), (512, 777), (2048, 300), (256, 4000), (4096, 130), (333, 1500), (128, 2048), (1500, 600)]

HEADER = "import torch\nimport torch.nn as nn\n"
TRITON_HEADER = "import torch\nimport torch.nn as nn\nimport triton\nimport triton.language as tl\n\n"


def elementwise(i, name, texpr, kexpr):
    n = ELEMENTWISE_N[i]
    task = f"""{HEADER}
N = {n}


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return {texpr}


def get_inputs():
    return [torch.randn(N)]


def get_init_inputs():
    return []
"""

    def answer(block, warps, bug):
        body = {"none": kexpr, "bias": f"({kexpr}) + 0.01"}.get(bug, kexpr)
        grid = "triton.cdiv(N, BLOCK) - 1" if bug == "tail" else "triton.cdiv(N, BLOCK)"
        return f"""{TRITON_HEADER}
@triton.jit
def {name}_kernel(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, {body}, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        N = x.numel()
        BLOCK = {block}
        {name}_kernel[({grid},)](x, y, N, BLOCK=BLOCK, num_warps={warps})
        return y
"""
    return task, [(answer(1024, 4, "none"), True, "block1024"), (answer(256, 2, "none"), True, "block256"),
                  (answer(4096, 8, "none"), True, "block4096"), (answer(1024, 4, "bias"), False, "bias"),
                  (answer(1024, 4, "tail"), False, "last_block_not_written")]


def reduction(i, name, texpr, kexpr, fill):
    m, n = REDUCTION_SHAPES[i]
    task = f"""{HEADER}
M = {m}
N = {n}


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return {texpr}


def get_inputs():
    return [torch.randn(M, N)]


def get_init_inputs():
    return []
"""

    def answer(warps, bug):
        limit = "N // 2" if bug == "half_row" else "N"
        res = f"({kexpr}) * 1.01" if bug == "scale" else kexpr
        return f"""{TRITON_HEADER}
@triton.jit
def {name}_kernel(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < {limit}
    x = tl.load(x_ptr + row * N + cols, mask=mask, other={fill})
    tl.store(y_ptr + row, {res})


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        M, N = x.shape
        y = torch.empty((M,), device=x.device, dtype=x.dtype)
        {name}_kernel[(M,)](x, y, N, BLOCK=triton.next_power_of_2(N), num_warps={warps})
        return y
"""
    return task, [(answer(4, None), True, "warps4"), (answer(8, None), True, "warps8"), (answer(2, None), True, "warps2"),
                  (answer(4, "scale"), False, "scaled_by_1.01"), (answer(4, "half_row"), False, "half_row")]


def softmax(i):
    m, n = SOFTMAX_SHAPES[i]
    task = f"""{HEADER}
BATCH = {m}
DIM = {n}


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.softmax(x, dim=-1)


def get_inputs():
    return [torch.randn(BATCH, DIM)]


def get_init_inputs():
    return []
"""

    def answer(warps, bug):
        other = "0.0" if bug == "pad_zero" else "-float('inf')"
        shift = "x" if bug == "no_max" else "x - tl.max(x, axis=0)"
        denom = "tl.sum(e, axis=0) + 0.5" if bug == "denom" else "tl.sum(e, axis=0)"
        return f"""{TRITON_HEADER}
@triton.jit
def softmax_kernel(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(x_ptr + row * N + cols, mask=mask, other={other})
    e = tl.exp({shift})
    tl.store(y_ptr + row * N + cols, e / ({denom}), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        M, N = x.shape
        softmax_kernel[(M,)](x, y, N, BLOCK=triton.next_power_of_2(N), num_warps={warps})
        return y
"""
    # pad_zero: masked lanes load 0 and add exp(0 - max) to the denominator: wrong for N not a power of 2.
    return task, [(answer(4, None), True, "warps4"), (answer(8, None), True, "warps8"), (answer(16, None), True, "warps16"),
                  (answer(4, "pad_zero"), False, "pad_with_zero"), (answer(4, "denom"), False, "bad_denominator")]


def rmsnorm(i):
    m, n = RMSNORM_SHAPES[i]
    task = f"""{HEADER}
M = {m}
N = {n}
EPS = 1e-6


class Model(nn.Module):
    def __init__(self, dim, eps=EPS):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(dim))
        self.eps = eps

    def forward(self, x):
        rms = x.pow(2).mean(dim=-1, keepdim=True).add(self.eps).rsqrt()
        return x * rms * self.weight


def get_inputs():
    return [torch.randn(M, N)]


def get_init_inputs():
    return [N]
"""

    def answer(warps, bug):
        div = "BLOCK" if bug == "div_block" else "N"
        wmul = "" if bug == "no_weight" else " * w"
        return f"""{TRITON_HEADER}
@triton.jit
def rmsnorm_kernel(x_ptr, w_ptr, y_ptr, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(x_ptr + row * N + cols, mask=mask, other=0.0)
    rms = tl.rsqrt(tl.sum(x * x, axis=0) / {div} + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0)
    tl.store(y_ptr + row * N + cols, x * rms{wmul}, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(dim))
        self.eps = eps

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        M, N = x.shape
        rmsnorm_kernel[(M,)](x, self.weight, y, N, self.eps, BLOCK=triton.next_power_of_2(N), num_warps={warps})
        return y
"""
    return task, [(answer(4, None), True, "warps4"), (answer(8, None), True, "warps8"), (answer(16, None), True, "warps16"),
                  (answer(4, "div_block"), False, "divides_by_block"), (answer(4, "no_weight"), False, "drops_weight")]


def matmul(i):
    m, k, n = MATMUL_SHAPES[i]
    task = f"""{HEADER}
M = {m}
K = {k}
N = {n}


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return torch.matmul(a, b)


def get_inputs():
    return [torch.randn(M, K), torch.randn(K, N)]


def get_init_inputs():
    return []
"""

    def answer(bm, bn, bk, bug):
        upper = "K - BK" if bug == "skip_last" else "K"
        # b_transposed: B read as if it were stored column-major (a stride mix-up).
        b_off = "rn[None, :] * K + (k0 + rk)[:, None]" if bug == "b_transposed" else "(k0 + rk)[:, None] * N + rn[None, :]"
        return f"""{TRITON_HEADER}
@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, {upper}, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k0 + rk)[None, :], mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + {b_off}, mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b, input_precision="ieee")
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        a = a.contiguous()
        b = b.contiguous()
        M, K = a.shape
        N = b.shape[1]
        c = torch.empty((M, N), device=a.device, dtype=torch.float32)
        grid = (triton.cdiv(M, {bm}), triton.cdiv(N, {bn}))
        matmul_kernel[grid](a, b, c, M, N, K, BM={bm}, BN={bn}, BK={bk})
        return c
"""
    return task, [(answer(32, 32, 32, None), True, "32x32x32"), (answer(64, 64, 32, None), True, "64x64x32"),
                  (answer(16, 16, 16, None), True, "16x16x16"), (answer(32, 32, 32, "skip_last"), False, "skips_last_k_block"),
                  (answer(32, 32, 32, "b_transposed"), False, "b_read_transposed")]


def build():
    tasks = []
    for i, (name, t, k) in enumerate(ELEMENTWISE):
        tasks.append((f"bench/elementwise_{name}", "elementwise", *elementwise(i, name, t, k)))
    for i, (name, t, k, fill) in enumerate(REDUCTIONS):
        tasks.append((f"bench/reduce_{name}", "reduction", *reduction(i, name, t, k, fill)))
    for i in range(8):
        tasks.append((f"bench/softmax_{i}", "softmax", *softmax(i)))
    for i in range(8):
        tasks.append((f"bench/rmsnorm_{i}", "rmsnorm", *rmsnorm(i)))
    for i in range(8):
        tasks.append((f"bench/matmul_{i}", "matmul", *matmul(i)))
    return tasks


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    out, dbpath = sys.argv[1], sys.argv[2]
    os.makedirs(os.path.join(out, "tasks"), exist_ok=True)
    os.makedirs(os.path.join(out, "answers"), exist_ok=True)
    db = sqlite3.connect(dbpath)
    now = int(time.time())
    rows = []
    for tname, category, task, answers in build():
        slug = tname.split("/")[1]
        tpath = os.path.join(out, "tasks", slug + ".py")
        with open(tpath, "w") as f:
            f.write(task)
        key = hashlib.sha256(task.encode()).hexdigest()[:32]
        cur = db.execute("INSERT INTO tasks(task_key, name, category, level, backend, dtype, source, created_at) "
                         "VALUES(?,?,?,1,'triton','fp32','sieve-bench',?)", (key, tname, category, now))
        tid = cur.lastrowid
        db.execute("INSERT INTO task_payloads(task_id, reference_code) VALUES(?,?)", (tid, b"r" + task.encode()))
        for code, correct, variant in answers:
            sname = f"{tname}/{variant}"
            apath = os.path.join(out, "answers", f"{slug}__{variant}.py")
            with open(apath, "w") as f:
                f.write(code)
            cur = db.execute("INSERT INTO samples(sample_key, name, task_id, backend, origin, has_answer, code_hash, "
                             "code_bytes, created_at) VALUES(?,?,?,'triton','bench',1,?,?,?)",
                             (hashlib.sha256(sname.encode()).hexdigest()[:32], sname, tid,
                              hashlib.sha256(code.encode()).hexdigest()[:32], len(code), now))
            sid = cur.lastrowid
            db.execute("INSERT INTO sample_payloads(sample_id, code) VALUES(?,?)", (sid, b"r" + code.encode()))
            rows.append({"sample": sid, "name": sname, "task": tname, "task_file": os.path.abspath(tpath),
                         "answer_file": os.path.abspath(apath), "intended_correct": correct})
    db.commit()
    with open(os.path.join(out, "samples.jsonl"), "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    print(f"{len(rows)} samples over {len(rows) // 5} tasks -> {dbpath}, {out}/samples.jsonl")


if __name__ == "__main__":
    main()
