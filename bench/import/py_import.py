#!/usr/bin/env python3
"""The baseline for the import benchmark: the same import as `sieve-cli import --format sieve` written
the plain way, with json, hashlib, zlib and sqlite3.executemany, into the same tables (a corpus made by
`sieve-cli init`), one transaction per batch of 4096 rows.

Same work per row: parse, validate the fields, key the sample by task key + origin + id + code, hash
the code, compress it, INSERT OR IGNORE the row and its payload. zlib level 1 stands in for zstd (the
standard library has no zstd before Python 3.14), blake2b for XXH3. It skips the C++ importer's
per-sample id clash check, which only makes it faster.

usage: py_import.py DB FILE..."""
import hashlib
import json
import sqlite3
import sys
import time
import zlib

BATCH = 4096


def key(*parts):
    h = hashlib.blake2b(digest_size=16)
    for p in parts:
        b = p.encode()
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)
    return h.hexdigest()


def pack(text):
    b = text.encode()
    return b"r" + b if len(b) < 96 else b"Z" + zlib.compress(b, 1)


def main():
    db = sqlite3.connect(sys.argv[1], isolation_level=None)
    for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON", "cache_size=-65536",
                   "temp_store=MEMORY", "wal_autocheckpoint=4096"):
        db.execute("PRAGMA " + pragma)
    now = int(time.time())
    tasks = {}
    rejected = 0
    for path in sys.argv[2:]:
        with open(path, encoding="utf-8") as f:
            samples, payloads = [], []

            def flush():
                if not samples:
                    return
                db.execute("BEGIN IMMEDIATE")
                db.executemany(
                    "INSERT OR IGNORE INTO samples(sample_key, name, task_id, backend, origin, model, temperature, "
                    "attempt, has_answer, code_hash, code_bytes, created_at) VALUES(?,?,?,?,?,?,?,?,?,?,?,?)",
                    samples)
                db.executemany(
                    "INSERT OR IGNORE INTO sample_payloads(sample_id, code, reasoning, response) "
                    "SELECT id, ?, ?, ? FROM samples WHERE sample_key = ?", payloads)
                db.execute("COMMIT")
                samples.clear()
                payloads.clear()

            for line in f:
                try:
                    row = json.loads(line)
                except ValueError:
                    rejected += 1
                    continue
                if "reference_code" in row:
                    ref = row["reference_code"]
                    dtype = row.get("dtype", "fp32")
                    tk = key("task", ref, dtype, repr(row.get("atol")), repr(row.get("rtol")),
                             json.dumps(row.get("shapes"), separators=(",", ":")))
                    db.execute("BEGIN IMMEDIATE")
                    cur = db.execute(
                        "INSERT OR IGNORE INTO tasks(task_key, name, level, category, backend, target, dtype, atol, "
                        "rtol, shapes_json, source, license, created_at) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)",
                        (tk, row["task_id"], row.get("level"), row.get("category"), row.get("backend", "triton"),
                         row.get("target"), dtype, row.get("atol"), row.get("rtol"),
                         json.dumps(row.get("shapes")), row.get("source"), row.get("license"), now))
                    if cur.rowcount:
                        db.execute("INSERT INTO task_payloads(task_id, reference_code) VALUES(?, ?)",
                                   (cur.lastrowid, pack(ref)))
                    db.execute("COMMIT")
                    tid, tkey, tbackend = db.execute("SELECT id, task_key, backend FROM tasks WHERE name = ?",
                                                     (row["task_id"],)).fetchone()
                    tasks[row["task_id"]] = (tid, tkey, tbackend)
                    continue
                code = row.get("code")
                task = tasks.get(row.get("task_id"))
                if not isinstance(code, str) or task is None or not isinstance(row.get("sample_id"), str):
                    rejected += 1
                    continue
                origin = row.get("origin", "teacher")
                sk = key(task[1], key("sample", origin, row["sample_id"], code, ""))
                samples.append((sk, row["sample_id"], task[0], row.get("backend", task[2]), origin, row.get("model"),
                                row.get("temperature"), row.get("attempt"), 1, key(code), len(code), now))
                payloads.append((pack(code), None, None, sk))
                if len(samples) >= BATCH:
                    flush()
            flush()
    print(f"rejected {rejected}", file=sys.stderr)


if __name__ == "__main__":
    main()
