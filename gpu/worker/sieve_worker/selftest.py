"""Runs every verifier fixture through a real worker process over the protocol and prints expected vs got.

    python -m sieve_worker.selftest tests/data/verifier/manifest.json [--device cpu|cuda:0] [--only NAME]

Exit status 1 when any fixture's verdict differs from the manifest.
"""
import argparse
import hashlib
import hmac
import json
import os
import queue
import shutil
import secrets
import subprocess
import sys
import tempfile
import threading
import time


def expectation(fx, device, cgroups=True):
    """The accepted (status, reason) pairs: `expect`/`reason`, or any of `expect_any` (a hostile answer may be
    stopped by more than one layer); `expect_gpu` replaces them under --device cuda, `expect_no_cgroups` where
    the worker has no cgroups (hello env sandbox.cgroups "none": not root)."""
    e = fx["expect_gpu"] if device != "cpu" and fx.get("expect_gpu") else fx
    if not cgroups and fx.get("expect_no_cgroups"):
        e = fx["expect_no_cgroups"]
    if e.get("expect_any"):
        return [(a["expect"], a.get("reason")) for a in e["expect_any"]]
    return [(e["expect"], e.get("reason"))]


def protocol_checks(send, recv, root, tasks, on_gpu):
    """Malformed requests get an error (not a verdict, not a dead worker); cancel kills a running child."""
    bad = []
    for line, what in (("this is not json", "malformed line"), ({"op": "frobnicate"}, "unknown op"),
                       ({"op": "verify", "job": 10**6, "task_key": "no-such-task", "code": ""}, "unknown task")):
        send(line) if isinstance(line, dict) else send_line(send, line)
        msg = recv()
        if msg.get("op") != "error":
            bad.append(f"{what}: expected an error, got {msg}")
        if what == "unknown task":
            # a verify request the worker cannot serve is also a harness fault for its job: no verdict of
            # the sample's, the engine leaves it pending (rules.harness_fault)
            msg = recv()
            if msg.get("op") != "verdict" or not msg.get("harness_fault") or msg.get("job") != 10**6:
                bad.append(f"{what}: expected a harness-fault line for the job, got {msg}")
    key = next((k for k in tasks if "softmax" in k), None)
    if key is None:
        return bad
    with open(os.path.join(root, "answers", "infinite_loop.py")) as f:
        code = f.read()
    send({"op": "verify", "job": 10**6 + 1, "task_key": key, "sample_id": -1, "backend": "triton", "code": code,
          "timing": False, "timeouts": {"compile": 60, "correct": 60}})
    time.sleep(3)
    t0 = time.monotonic()
    send({"op": "cancel", "job": 10**6 + 1})
    msg = recv()
    if msg.get("op") != "verdict" or msg.get("status") != "CANCELLED" or time.monotonic() - t0 > 10:
        bad.append(f"cancel: expected a CANCELLED verdict within 10 s, got {msg.get('status')}")
    else:
        print(f"protocol: malformed line, unknown op, unknown task -> error; cancel -> CANCELLED in "
              f"{time.monotonic() - t0:.2f} s")
    return bad


def processes_named(name):
    """Pids whose comm is name (a hostile fixture names the processes it leaves behind)."""
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open(f"/proc/{pid}/comm") as f:
                    if f.read().strip() == name:
                        found.append(int(pid))
            except OSError:
                pass
    return found


def send_line(send, line):
    # send() JSON-encodes dicts; a raw line goes through the same pipe unencoded
    send.raw(line)


def main():
    ap = argparse.ArgumentParser(prog="sieve_worker.selftest")
    ap.add_argument("manifest")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--parallel", type=int, default=2)
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--timing", action="store_true", help="time every fixture on the GPU, not only marked ones")
    ap.add_argument("--time-on-cpu", action="store_true",
                    help="on the CPU, time the fixtures --timing or their own `timing` names, to test the timing path "
                         "(hello time_on_cpu)")
    ap.add_argument("--no-runtime-wall", action="store_true",
                    help="run without the runtime wall (hello runtime_wall: false), to measure the other walls alone")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--dump", help="write every verdict (JSON lines) to this file")
    ap.add_argument("--fp32-precision", choices=["deployed", "ieee"], help="fp32 tl.dot precision (hello)")
    args = ap.parse_args()
    root = os.path.dirname(os.path.abspath(args.manifest))
    with open(args.manifest) as f:
        manifest = json.load(f)
    fixtures = manifest["fixtures"]
    on_gpu = args.device != "cpu"
    chosen = []
    for fx in fixtures:
        if args.only and not any(o in fx["name"] for o in args.only):
            continue
        if fx.get("gpu") and not on_gpu:
            continue
        if fx.get("cpu_only") and on_gpu:
            continue
        chosen.append(fx)
    env = dict(os.environ)
    for fx in chosen:
        env.update(fx.get("planted_env") or {})
    pkg_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = pkg_dir + os.pathsep + env.get("PYTHONPATH", "")
    tmp = tempfile.mkdtemp(prefix="sieve-selftest-")
    os.chmod(tmp, 0o755)  # children may run as nobody: they must reach the cache and scratch folders
    for fx in chosen:  # must_not_exist: a path or a list; "{cache}" in it is the worker's cache folder of this run
        paths = fx.get("must_not_exist") or []
        fx["must_not_exist"] = [p.replace("{cache}", os.path.join(tmp, "cache"))
                                for p in ([paths] if isinstance(paths, str) else paths)]
        for p in fx["must_not_exist"]:
            if os.path.exists(p):
                os.remove(p)
    planted = plant_files(chosen, root)
    try:
        return run(args, manifest, chosen, env, tmp, root, on_gpu)
    finally:
        for d in planted.values():
            shutil.rmtree(d, ignore_errors=True)


def plant_files(chosen, root):
    """`planted_file` ({"content": ...}): a world-readable file in a fresh 0755 folder beside the manifest
    (outside /tmp, which the sandbox hides anyway, as a file under /home or /work would be); the answer's
    code names it as {planted_file}. Returns {fixture name: folder}, removed at the end."""
    planted = {}
    for fx in chosen:
        spec = fx.get("planted_file")
        if not spec:
            continue
        d = tempfile.mkdtemp(prefix=".planted-", dir=root)
        os.chmod(d, 0o755)
        path = os.path.join(d, "host-secret.txt")
        with open(path, "w") as f:
            f.write(spec["content"] + "\n")
        os.chmod(path, 0o644)
        fx["_planted_path"] = path
        planted[fx["name"]] = d
    return planted


def run(args, manifest, chosen, env, tmp, root, on_gpu):
    t_start = time.monotonic()
    proc = subprocess.Popen([args.python, "-m", "sieve_worker", "--device", args.device, "--parallel",
                             str(args.parallel)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True,
                            bufsize=1)

    def send(obj):
        proc.stdin.write(json.dumps(obj) + "\n")
        proc.stdin.flush()

    def raw(line):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
    send.raw = raw

    # a reader thread: verdicts (stage-0 ones come at once) must not fill the pipe while requests are sent
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(x) for x in iter(proc.stdout.readline, "")] + [lines.put("")],
                     daemon=True).start()
    # the verdict channel as the engine checks it (gpu/verify/workerprocess.h): a line without the session key's
    # tag and the next sequence number is dropped and counted (a forged line makes the run fail)
    channel = {"seq": 0, "dropped": [], "key": secrets.token_hex(32)}

    def recv():
        while True:
            line = lines.get()
            if not line:
                raise SystemExit("the worker closed its stdout")
            parts = line.rstrip("\n").split(" ", 2)
            if len(parts) == 3 and parts[1] == str(channel["seq"]) and hmac.compare_digest(
                    parts[0], hmac.new(bytes.fromhex(channel["key"]), f"{parts[1]} {parts[2]}".encode(), hashlib.sha256).hexdigest()):
                channel["seq"] += 1
                return json.loads(parts[2])
            channel["dropped"].append(line[:200])
            print(f"dropped a line without a valid channel tag: {line[:200]!r}")
    send({"op": "hello", "cache_dir": os.path.join(tmp, "cache"), "scratch_root": os.path.join(tmp, "scratch"),
          "channel_key": channel["key"], **({"fp32_precision": args.fp32_precision} if args.fp32_precision else {}),
          **({"runtime_wall": False} if args.no_runtime_wall else {}),
          **({"time_on_cpu": True} if args.time_on_cpu else {})})
    hello = recv()
    print(f"worker: {json.dumps(hello.get('env'))}")
    t_ready = time.monotonic()
    tasks, ready = {}, {}
    for fx in chosen:
        with open(os.path.join(root, fx["task"])) as f:
            code = f.read()
        meta = dict(fx.get("task_meta") or {})
        key = fx["task"] + ":" + hashlib.sha256(json.dumps(meta, sort_keys=True).encode()).hexdigest()[:8]
        fx["_task_key"] = key
        if key in tasks:
            continue
        req = {"op": "task", "task_key": key, "name": fx["task"], "reference_code": code,
               "dtype": meta.get("dtype", "fp32"), "shapes": meta.get("shapes") or [],
               "seeds": meta.get("seeds") or [0, 1, 2, 3, 4],
               "init_inputs_style": meta.get("init_inputs_style", "kernelbench")}
        for k in ("atol", "rtol", "max_task_bytes", "ref_disk_bytes", "derived_max_bytes"):
            if k in meta:
                req[k] = meta[k]
        tasks[key] = req
        send(req)
        msg = recv()
        while msg.get("op") in ("task_started", "task_queued"):  # references begun or requeued
            msg = recv()
        if msg.get("op") != "task_ready":
            print(f"task {key}: {msg}")
        ready[key] = msg
    t_refs = time.monotonic() - t_ready
    jobs = {}
    for i, fx in enumerate(chosen):
        with open(os.path.join(root, fx["answer"])) as f:
            code = f.read()
        if fx.get("_planted_path"):
            code = code.replace("{planted_file}", fx["_planted_path"])
        req = {"op": "verify", "job": i, "task_key": fx["_task_key"], "sample_id": i, "backend": fx.get("backend", "triton"),
               "code": code, "timing": (on_gpu or args.time_on_cpu) and (args.timing or bool(fx.get("timing"))),
               "skip_static": bool(fx.get("skip_static")), "policy": fx.get("policy", "strict"),
               "timeouts": {"compile": 120, "correct": 120, "timing": 120, **(manifest.get("timeouts") or {}),
                            **(fx.get("timeouts") or {})},
               "limits": {"memory_mb": 4096, "processes": 64, **(fx.get("limits") or {})}}
        jobs[i] = fx
        send(req)
    verdicts, extra = {}, []
    while len(verdicts) < len(jobs):
        msg = recv()
        if msg.get("op") == "verdict" and msg.get("job") in jobs and msg["job"] not in verdicts:
            verdicts[msg["job"]] = msg  # the first one, as the engine keeps it
            # each as it comes (a run its caller stops at a time limit still shows what it verified)
            print(f"got  {jobs[msg['job']]['name']:30} {msg.get('status')} {','.join((msg.get('reasons') or [])[:3])}"
                  f" ({len(verdicts)}/{len(jobs)})", flush=True)
        elif msg.get("op") == "verdict":
            extra.append(msg)  # a second verdict for a job, or one for a job never sent: forged or a bug
        elif msg.get("op") in ("task_started", "task_queued"):
            pass  # an evicted task's references made again
        else:
            print(f"unexpected message: {msg}")
    # a suite of answers alone (the red team's) may leave the protocol checks to the main manifest
    proto_bad = protocol_checks(send, recv, root, tasks, on_gpu) \
        if not args.only and manifest.get("protocol_checks", True) else []
    send({"op": "shutdown"})
    proc.wait(timeout=60)
    total = time.monotonic() - t_start
    if args.dump:
        with open(args.dump, "w") as f:
            for i, fx in jobs.items():
                f.write(json.dumps({"fixture": fx["name"], **verdicts[i]}) + "\n")
    bad, gaps = 0, 0
    print(f"{'fixture':35} {'expected':34} {'got':44} {'ms':>7}")
    for i, fx in jobs.items():
        v = verdicts[i]
        accepted = expectation(fx, args.device, (hello.get("env") or {}).get("sandbox", {}).get("cgroups") != "none")
        ok = any(v["status"] == exp and (reason is None or reason in v["reasons"]) for exp, reason in accepted)
        exp, reason = "|".join(e for e, _ in accepted), "|".join(r or "" for _, r in accepted).strip("|")
        problems = []
        twice = [m for m in extra if m.get("job") == i]
        if twice:
            problems.append(f"the worker's stdout carried {len(twice) + 1} verdicts for this job "
                            f"(also {', '.join(m.get('status', '?') for m in twice)})")
        secret = fx.get("log_must_not_contain")
        if secret and (secret in v.get("log", "") or secret in json.dumps(v)):
            problems.append("planted secret leaked into the log")
        if fx.get("planted_file"):
            if fx["planted_file"]["content"] in json.dumps(v):
                problems.append(f"the planted host file {fx['_planted_path']} reached the verdict")
            if not (v.get("sandbox") or {}).get("read_rules") and "landlock" not in \
                    " ".join((v.get("sandbox") or {}).get("missing", [])):
                problems.append("the verdict's sandbox field lists no read_rules")
        problems += [f"{p} was written" for p in fx["must_not_exist"] if os.path.exists(p)]
        for needle in fx.get("sandbox_fds_without") or []:
            held = [f for f in (v.get("sandbox") or {}).get("fds", []) if needle in f]
            if held or not (v.get("sandbox") or {}).get("fds"):
                problems.append(f"the candidate started with fds {held or 'unknown'}")
        want = fx.get("message_must_contain")
        if want and want not in v.get("message", ""):
            problems.append(f"the message does not say {want!r}")
        for name in fx.get("process_must_not_remain") or []:
            left = processes_named(name)
            if left:
                problems.append(f"processes named {name!r} still run: {left}")
        if fx.get("expect_timed") and not any(t.get("which") == "candidate" for t in v.get("timings") or []):
            problems.append("the verdict has no timing of the candidate")
        want_drop = fx.get("expect_dropped_shapes")
        if want_drop is not None and len(ready[fx["_task_key"]].get("dropped_shapes", [])) != want_drop:
            problems.append(f"expected {want_drop} dropped shapes, got {ready[fx['_task_key']].get('dropped_shapes')}")
        got_codes = {f.get("code") for f in v.get("findings") or []}
        for code in fx.get("expect_findings") or []:  # stage-0 findings, fatal or not (notes on a PASS)
            if code not in got_codes:
                problems.append(f"expected a stage-0 finding {code}, got {sorted(got_codes)}")
        for flag in fx.get("flags_absent") or []:
            if flag in v.get("flags", []):
                problems.append(f"flag {flag} raised")
        for flag in fx.get("expect_flags") or []:
            if flag not in v.get("flags", []):
                problems.append(f"flag {flag} not raised (flags {v.get('flags', [])})")
        ok = ok and not problems
        # A known gap (`known_gap`: why) is an attack the verifier does not stop yet: reported on every run,
        # listed in docs/VERIFIER.md's threat model, not counted; once stopped it reads ok and the key goes.
        gap = not ok and bool(fx.get("known_gap"))
        gaps += gap
        bad += not ok and not gap
        got = f"{v['status']} {','.join(v['reasons'][:3])}"
        print(f"{'ok   ' if ok else 'GAP  ' if gap else 'FAIL '}{fx['name']:30} {exp + ' ' + (reason or ''):34} {got:44} {v['duration_ms']:7d}"
              + ("" if ok else f"\n      {v['message']}" + "".join(f"\n      {p}" for p in problems))
              + (f"\n      known gap: {fx['known_gap']}" if gap else ""))
        if args.verbose or not ok:
            if v.get("log") and not ok:
                print("      log: " + v["log"][-1500:].replace("\n", "\n      "))
        if v.get("timings"):
            for t in v["timings"]:
                print(f"      timing {t['which']:9} median {t['median_ms']:.4f} ms mean {t['mean_ms']:.4f} "
                      f"std {t['std_ms']:.4f} runs {t['runs']}")
            print(f"      speedup {v.get('speedup')} flags {v.get('flags')} share {v.get('custom_kernel_share')}")
    proto_bad += [f"a line without a valid channel tag reached the engine's pipe: {d!r}" for d in channel["dropped"]]
    for m in extra:
        if m.get("job") not in jobs:
            proto_bad.append(f"a verdict for job {m.get('job')}, which was never sent: {m.get('status')}")
    for p in proto_bad:
        print(f"FAIL protocol: {p}")
    bad += len(proto_bad)
    print(f"{len(jobs) - bad - gaps + len(proto_bad)}/{len(jobs)} fixtures as expected"
          + (f", {gaps} known gaps" if gaps else "") + f"; references {t_refs:.1f} s; total {total:.1f} s "
          f"on {args.device} with --parallel {args.parallel}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
