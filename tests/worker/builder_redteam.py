"""Runs the extension builder's red-team manifest (tests/data/verifier/builder/manifest.json): each case's
load_inline request is validated, built by the real builder process (real compilers) and its module judged
by its imports (elfimports.py); the outcome must be the case's `expect` (PASS, EXTENSION_IMPORT,
EXTENSION_LIBRARY_KERNEL, EXTENSION_FLAGS or BUILD_ERROR) and name its `symbol`.

usage: python builder_redteam.py MANIFEST [--cuda only|skip] [--jobs N] [--only NAME]...
Exit 0 when every case ran as expected; cases with CUDA sources are skipped (with a message) where there is
no nvcc (77 when nothing is left to run).
"""
import argparse
import concurrent.futures
import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "gpu", "worker"))
from sieve_worker.extensions import builder, elfimports  # noqa: E402

PWNED = "/tmp/sieve-builder-pwned"


def run_case(case, tc, root, policy):
    try:
        req = builder.validate(case["request"])
    except builder.Refused as e:
        return e.code, str(e)
    res = builder.build_sync(req, tc, os.path.join(root, case["name"]), limit=900)
    if not res.get("ok"):
        return "BUILD_ERROR", res.get("log", "")
    found = elfimports.judge(os.path.join(root, case["name"], f"{req['name']}.so"), policy)
    bad = [(code, m) for code, m, _ in found if code in elfimports.FATAL]
    return (bad[0][0], "; ".join(m for _, m in bad)) if bad else ("PASS", "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("manifest")
    ap.add_argument("--cuda", choices=["only", "skip"], default=None)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--policy", default="strict")
    ap.add_argument("--only", action="append", help="run the cases whose name contains this (repeatable)")
    a = ap.parse_args()
    with open(a.manifest) as f:
        cases = json.load(f)["cases"]
    if a.only:
        cases = [c for c in cases if any(o in c["name"] for o in a.only)]
    if a.cuda == "only":
        cases = [c for c in cases if c.get("cuda")]
    elif a.cuda == "skip":
        cases = [c for c in cases if not c.get("cuda")]
    tc = builder.toolchain()
    if not tc["nvcc"] and any(c.get("cuda") for c in cases):
        print(f"SKIP {sum(1 for c in cases if c.get('cuda'))} CUDA cases: no nvcc under {tc['cuda_home']}")
        cases = [c for c in cases if not c.get("cuda")]
        if not cases:
            return 77
    if os.path.exists(PWNED):
        os.unlink(PWNED)
    failures = 0
    t0 = time.time()
    with tempfile.TemporaryDirectory(prefix="sieve-builder-rt-") as root:
        os.chmod(root, 0o755)
        with concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as ex:
            futs = {ex.submit(run_case, c, tc, root, a.policy): c for c in cases}
            for fut in concurrent.futures.as_completed(futs):
                c = futs[fut]
                got, detail = fut.result()
                # `expect` may be a list: a hostile build refused for any of these reasons is refused
                expect = c["expect"] if isinstance(c["expect"], list) else [c["expect"]]
                ok = got in expect and (c.get("symbol") is None or got == "PASS" or c["symbol"] in detail)
                if "BUILD_ERROR" in expect and "root:x:0" in detail:
                    ok = False  # a host file's contents reached the build log
                failures += not ok
                print(f"{'ok  ' if ok else 'FAIL'} {c['name']}: {got} (expected {c['expect']}"
                      f"{', naming ' + c['symbol'] if c.get('symbol') else ''}) {detail[:300]!r}", flush=True)
    if os.path.exists(PWNED):
        print(f"FAIL a flag ran a command: {PWNED} exists")
        failures += 1
    print(f"{len(cases) - failures}/{len(cases)} cases as expected in {time.time() - t0:.0f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
