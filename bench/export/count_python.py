#!/usr/bin/env python3
"""Counts the tokens of an export's rows with the Python `tokenizers` library, the same way Sieve does
(each text field of a row encoded alone, no special tokens), timing encode() in a loop and
encode_batch(); checks the totals against the manifest.

Usage: count_python.py OUT_DIR TOKENIZER_JSON
"""
import json
import os
import sys
import time

from tokenizers import Tokenizer


def fields(row):
    if "messages" in row:
        for m in row["messages"]:
            yield m["content"]
            if "reasoning_content" in m:
                yield m["reasoning_content"]
    else:
        yield row["prompt"]
        yield row["completion"]
        if "reasoning_content" in row:
            yield row["reasoning_content"]


def main():
    out, tok_path = sys.argv[1], sys.argv[2]
    tok = Tokenizer.from_file(tok_path)
    tok.no_truncation()
    tok.no_padding()
    manifest = json.load(open(os.path.join(out, "manifest.json")))
    texts, rows = [], 0
    for split in ("train", "validation"):
        with open(os.path.join(out, split + ".jsonl"), encoding="utf-8") as f:
            for line in f:
                rows += 1
                texts.extend(fields(json.loads(line)))
    t0, c0 = time.perf_counter(), time.process_time()
    single = sum(len(tok.encode(t, add_special_tokens=False).ids) for t in texts)
    t1, c1 = time.perf_counter(), time.process_time()
    batch = sum(len(e.ids) for e in tok.encode_batch(texts, add_special_tokens=False))
    t2, c2 = time.perf_counter(), time.process_time()
    expected = manifest["counts"]["train"]["tokens"] + manifest["counts"]["validation"]["tokens"]
    print(json.dumps({"rows": rows, "texts": len(texts), "bytes": sum(len(t.encode()) for t in texts),
                      "tokens_python": single, "tokens_python_batch": batch, "tokens_sieve": expected,
                      "equal": single == batch == expected,
                      "encode_wall_s": round(t1 - t0, 3), "encode_cpu_s": round(c1 - c0, 3),
                      "encode_batch_wall_s": round(t2 - t1, 3), "encode_batch_cpu_s": round(c2 - c1, 3),
                      "rayon_threads": os.environ.get("RAYON_NUM_THREADS", "default")}))
    sys.exit(0 if single == batch == expected else 1)


if __name__ == "__main__":
    main()
