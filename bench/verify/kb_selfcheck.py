#!/usr/bin/env python3
"""Checks the answer templates (kb_answers.py) against their problems on the CPU before a GPU run: each
Triton answer of OUT/samples.jsonl (from kb_corpus.py) runs under TRITON_INTERPRET=1 on its problem shrunk
to at most 64k input elements (the CPU verifier's rule), and its intent is compared with what came out:
correct/partial/wrapper/tf32 answers must match the reference, bug answers must not.

    TRITON_INTERPRET=1 python3 kb_selfcheck.py OUT_DIR [--only REGEX]      (an interpreter with torch, triton)
"""
import importlib.util
import json
import os
import re
import sys
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "gpu", "worker"))
from sieve_worker.tasks import taskref  # noqa: E402


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def rewrite(code, shape, path):
    import ast
    lines = code.splitlines()
    for node in ast.parse(code).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and node.targets[0].id in shape and node.lineno == node.end_lineno:
            v = shape[node.targets[0].id]
            lines[node.lineno - 1] = f"{node.targets[0].id} = {tuple(v) if isinstance(v, list) else v!r}"
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def main():
    assert os.environ.get("TRITON_INTERPRET") == "1", "run with TRITON_INTERPRET=1"
    import torch
    out = sys.argv[1]
    only = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--only" else None
    rows = [json.loads(l) for l in open(os.path.join(out, "samples.jsonl"))]
    bad = 0
    for i, r in enumerate(rows):
        if r["backend"] != "triton" or r["intended"] in ("kernelbench_example", "zeros") or (only and not re.search(only, r["name"])):
            continue
        try:
            code = open(r["task_file"]).read()
            task = load(r["task_file"], f"t{i}")
            shape = taskref.scale_down(task, taskref.size_constants(code), 1 << 16, 0, taskref.size_constants(code, True))
            # the module again with the shrunk sizes written in, so that sizes derived from them at import
            # (bias_shape = (out_channels, 1, 1)) shrink too
            task = load(rewrite(code, shape, os.path.join(out, f".selfcheck_{i}.py")), f"t{i}s")
            ref = taskref.build(task, task.Model, 0, "kernelbench").eval()
            ans = load(r["answer_file"], f"a{i}")
            new = taskref.build(task, ans.ModelNew, 0, "kernelbench").eval()
            new.load_state_dict(ref.state_dict())
            inputs = taskref.make_inputs(task, 0)
            with torch.no_grad():
                want = ref(*[x.clone() if isinstance(x, torch.Tensor) else x for x in inputs])
                # uninitialised memory as NaN, as Sieve's child has it: a block never written must show
                saved = torch.empty_like, torch.empty
                torch.empty_like = lambda *a, **k: saved[0](*a, **k).fill_(float("nan"))
                torch.empty = lambda *a, **k: saved[1](*a, **k).fill_(float("nan"))
                try:
                    got = new(*inputs)
                finally:
                    torch.empty_like, torch.empty = saved
            same = got.shape == want.shape and torch.allclose(got.float(), want.float(), atol=1e-4, rtol=1e-4)
            what = f"match (max abs {float((got.float() - want.float()).abs().max()):.2g})" if same else \
                f"differ ({tuple(got.shape)} vs {tuple(want.shape)}, max abs {float((got.float() - want.float()).abs().max()) if got.shape == want.shape else float('nan'):.2g})"
        except Exception as e:
            same, what = False, f"error {type(e).__name__}: {str(e)[:160]}"
        ok = same == (r["intended"] != "bug")
        bad += not ok
        print(f"{'ok ' if ok else 'BAD'} {r['name']:<80} {r['intended']:<8} {what}", flush=True)
    print(f"{bad} answers not as intended")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
