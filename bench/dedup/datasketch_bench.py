#!/usr/bin/env python3
"""datasketch's MinHashLSH on the same shingle sets that Sieve's dedup_bench wrote (OUT_DIR/shingles.bin),
with the same permutations, threshold and LSH weights; scored against the same exact ground truth
(OUT_DIR/truth.bin, OUT_DIR/canon.bin). datasketch gets the shingles ready-made (Sieve's time includes
lexing and shingling), which favours it. --hash sha1 (default) is datasketch's own hash function over each
shingle's 4 bytes, the way datasketch is normally used; --hash identity skips it (favours datasketch more).

Usage: datasketch_bench.py OUT_DIR [--threshold T] [--permutations P] [--fp-weight W] [--limit N]
                           [--hash sha1|identity]
With --limit, only the first N documents are used (ground truth restricted to them).
"""
import argparse
import json
import time

import numpy as np
from datasketch import MinHash, MinHashLSH


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out_dir")
    ap.add_argument("--threshold", type=float, default=0.8)
    ap.add_argument("--permutations", type=int, default=128)
    ap.add_argument("--fp-weight", type=float, default=0.05)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--hash", choices=["sha1", "identity"], default="sha1")
    ap.add_argument("--verify", action="store_true",
                    help="also check candidates by exact Jaccard in Python (slow; it cannot change recall)")
    a = ap.parse_args()

    raw = np.fromfile(a.out_dir + "/shingles.bin", dtype=np.uint8)
    n_all = int(raw[:8].view(np.uint64)[0])
    off = raw[8:8 + 8 * (n_all + 1)].view(np.uint64)
    vals = raw[8 + 8 * (n_all + 1):].view(np.uint32)
    canon = np.fromfile(a.out_dir + "/canon.bin", dtype=np.uint32)
    truth = np.fromfile(a.out_dir + "/truth.bin", dtype=np.uint64)
    n = min(n_all, a.limit) if a.limit else n_all
    docs = [vals[off[i]:off[i + 1]].tolist() for i in range(n)]
    # The input datasketch's default hash expects: bytes per shingle (prepared outside the timing).
    inputs = [[x.to_bytes(4, "little") for x in d] for d in docs] if a.hash == "sha1" else docs
    hash_kw = {} if a.hash == "sha1" else {"hashfunc": int}

    wall0, cpu0 = time.perf_counter(), time.process_time()
    lsh = MinHashLSH(threshold=a.threshold, num_perm=a.permutations, weights=(a.fp_weight, 1 - a.fp_weight))
    sigs = MinHash.bulk(inputs, num_perm=a.permutations, seed=1, **hash_kw)
    t_minhash = time.perf_counter() - wall0
    with lsh.insertion_session() as session:
        for i, m in enumerate(sigs):
            session.insert(i, m)
    t_insert = time.perf_counter() - wall0 - t_minhash
    cand = set()
    for i, m in enumerate(sigs):
        for j in lsh.query(m):
            if j != i:
                cand.add((i, j) if i < j else (j, i))
    wall = time.perf_counter() - wall0
    cpu = time.process_time() - cpu0

    # Exact Jaccard on the candidates: what a user must add to get duplicates rather than candidates.
    v0 = time.perf_counter()
    sets = {}
    confirmed = set()
    for i, j in (cand if a.verify else ()):
        si = sets.setdefault(i, set(docs[i]))
        sj = sets.setdefault(j, set(docs[j]))
        inter = len(si & sj)
        if inter / (len(si) + len(sj) - inter) >= a.threshold - 1e-12:
            confirmed.add((i, j))
    t_verify = time.perf_counter() - v0

    # Ground truth restricted to the first n documents, expanded over exact-duplicate groups.
    c = canon[:n]
    sizes = np.bincount(c, minlength=n_all).astype(np.int64)
    gt = truth[((truth >> np.uint64(32)) < n) & ((truth & np.uint64(0xFFFFFFFF)) < n)]
    gt_set = set(gt.tolist())
    gt_count = int((sizes * (sizes - 1) // 2).sum())
    ga, gb = (gt >> np.uint64(32)).astype(np.int64), (gt & np.uint64(0xFFFFFFFF)).astype(np.int64)
    gt_count += int((sizes[ga] * sizes[gb]).sum())

    def score(pairs):
        hit = 0
        for i, j in pairs:
            ci, cj = int(c[i]), int(c[j])
            if ci == cj or ((min(ci, cj) << 32) | max(ci, cj)) in gt_set:
                hit += 1
        return {"pairs": len(pairs), "precision": hit / len(pairs) if pairs else 1.0,
                "recall": hit / gt_count if gt_count else 1.0}

    print(json.dumps({
        "files": n, "bands": lsh.b, "rows": lsh.r, "hash": a.hash,
        "datasketch_seconds": {"total": round(wall, 3), "minhash": round(t_minhash, 3), "insert": round(t_insert, 3),
                               "query": round(wall - t_minhash - t_insert, 3)},
        "datasketch_cpu_seconds": round(cpu, 3),
        "exact_verification_seconds": round(t_verify, 3) if a.verify else None,
        "truth_pairs": gt_count,
        "lsh_candidates": score(cand),
        "after_exact_verification": score(confirmed) if a.verify else None,
    }, indent=2))


if __name__ == "__main__":
    main()
