#!/usr/bin/env python3
"""Writes tasks.jsonl and samples.jsonl (Sieve's JSONL, docs/FORMATS.md) from manifest.py, tasks/ and
samples/. Run it after editing any of them; setup.sh imports the two .jsonl files.

usage: python3 build.py"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from manifest import SAMPLES, TASKS  # noqa: E402


def read(*parts):
    with open(os.path.join(HERE, *parts)) as f:
        return f.read()


def response_text(code):
    return ("Here is a Triton implementation. The kernel fuses the whole computation into one launch and "
            "masks the tail of each row.\n\n```python\n" + code + "```\n\nLaunch it with one program per "
            "row; the tile is the next power of two above the row length.\n")


def think_text(code):
    draft = read("samples", "rmsnorm_A.py")
    return ("<think>\nRMSNorm reduces over the last dimension, so each row is independent. A first draft "
            "with one program per row:\n```python\n" + draft + "```\nBut the default shapes have few short "
            "rows, so one program per row leaves the machine idle; a 2-D tile of BLOCK_M rows amortises the "
            "loads and reduces along axis 1. Accumulate in fp32, broadcast rms[:, None] and w[None, :].\n"
            "</think>\n\nA multi-row version:\n\n```python\n" + code + "```\n")


def openai_object(code):
    return {
        "id": "chatcmpl-demo-softmax", "object": "chat.completion", "model": "demo-teacher",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {
            "role": "assistant",
            "reasoning_content": "Softmax over the last dimension: one program per row, subtract the row "
                                 "max before exp for stability, fill masked lanes with -inf so they add 0.",
            "content": "```python\n" + code + "```"}}],
        "usage": {"prompt_tokens": 412, "completion_tokens": 388},
    }


NO_CODE = ("To implement RMSNorm in Triton, launch one program per row, load the row with a mask, compute "
           "the mean of squares in fp32, take rsqrt(mean + eps) and multiply by the weight. The block size "
           "should be the next power of two above N. I can write the full kernel if you want.\n")


def main():
    with open(os.path.join(HERE, "tasks.jsonl"), "w") as f:
        for t in TASKS:
            row = {"task_id": t["task_id"], "reference_code": read("tasks", t["file"]), "dtype": "fp32",
                   "atol": 1e-4, "rtol": 1e-4, "level": t["level"], "category": t["category"],
                   "backend": "triton", "target": "any", "shapes": t["shapes"], "source": "sieve-demo",
                   "license": "CC0-1.0"}
            f.write(json.dumps(row) + "\n")
    with open(os.path.join(HERE, "samples.jsonl"), "w") as f:
        for attempt, s in enumerate(SAMPLES):
            row = {"sample_id": s["sample_id"], "task_id": s["task_id"], "model": "demo-teacher",
                   "temperature": 0.7, "attempt": attempt, "backend": s.get("backend", "triton")}
            code = read("samples", s["file"]) if s["file"] else None
            form = s["form"]
            if form == "code":
                row["code"] = code
            elif form == "response":
                row["response"] = response_text(code) if code else NO_CODE
            elif form == "think":
                row["response"] = think_text(code)
            elif form == "openai":
                row["response"] = openai_object(code)
            if s.get("reasoning"):
                row["reasoning"] = s["reasoning"]
            f.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
