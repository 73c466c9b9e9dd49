"""GPU check of the worker's data path at real sizes (exit 77 without a GPU):

- a task whose one output is GB large (outer product, fp32): a right answer PASSes, a wrong one is
  FAIL_MISMATCH, every output crossing through the shared buffer;
- admission: with the worker's host budget lowered in `hello`, jobs of that task do not all run at once;
  the host's MemAvailable is sampled throughout and its lowest value printed;
- a task whose call cannot fit the GPU is REF_TOO_LARGE with the bytes needed and available, decided on
  the meta device without allocating.

    PYTHONPATH=gpu/worker python tests/worker/gpu_data_path.py [--gb 2] [--jobs 4] [--budget-gb 10]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data", "verifier", "redteam", "data")


def mem_available():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gb", type=float, default=2.0, help="size of the one output, GB")
    ap.add_argument("--jobs", type=int, default=4)
    ap.add_argument("--parallel", type=int, default=4)
    ap.add_argument("--budget-gb", type=float, default=10.0, help="the worker's host budget (hello)")
    args = ap.parse_args()
    try:
        import torch
        if not torch.cuda.is_available():
            print("no GPU: skipped")
            return 77
    except ImportError:
        return 77
    n = 32768
    m = max(64, int(args.gb * 1e9 / 4 / n))
    with open(os.path.join(DATA, "tasks", "outer.py")) as f:
        code = f.read().replace("M = 128", f"M = {m}").replace("N = 16384", f"N = {n}")
    with open(os.path.join(DATA, "answers", "outer_ok.py")) as f:
        good = f.read()
    with open(os.path.join(DATA, "answers", "outer_last_row_zero.py")) as f:
        bad = f.read()
    huge = code.replace(f"M = {m}", "M = 262144").replace(f"N = {n}", "N = 262144")  # 256 GB of output
    tmp = tempfile.mkdtemp(prefix="sieve-gpu-data-")
    env = dict(os.environ)
    proc = subprocess.Popen([sys.executable, "-m", "sieve_worker", "--device", "cuda:0", "--parallel",
                             str(args.parallel)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True,
                            bufsize=1)

    def send(obj):
        proc.stdin.write(json.dumps(obj) + "\n")
        proc.stdin.flush()

    def recv():
        while True:
            line = proc.stdout.readline()
            if not line:
                raise SystemExit("the worker closed its stdout")
            msg = json.loads(line)
            if msg.get("op") not in ("task_started", "task_queued"):  # a task server began (or requeued) references
                return msg
    low = [mem_available()]
    start_avail = low[0]
    stop = threading.Event()

    def sample():
        while not stop.is_set():
            low[0] = min(low[0], mem_available())
            time.sleep(0.2)
    threading.Thread(target=sample, daemon=True).start()
    send({"op": "hello", "cache_dir": os.path.join(tmp, "cache"), "scratch_root": os.path.join(tmp, "scratch"),
          "host_budget_bytes": int(args.budget_gb * (1 << 30))})
    hello = recv()
    print("budget:", hello["env"].get("memory_budget"), "gpu free:", hello["env"].get("gpu_free_bytes"))
    t0 = time.monotonic()
    send({"op": "task", "task_key": "outer", "name": "outer", "reference_code": code, "dtype": "fp32",
          "shapes": [{"M": 64, "N": 64}], "seeds": [0, 1, 2, 3, 4]})
    ready = recv()
    print(f"task_ready in {time.monotonic() - t0:.1f} s: ok={ready['ok']} shapes={ready['shapes']} "
          f"hygiene={ready['hygiene']}")
    send({"op": "task", "task_key": "huge", "name": "huge", "reference_code": huge, "dtype": "fp32",
          "shapes": [], "seeds": [0, 1, 2, 3, 4]})
    huge_ready = recv()
    print(f"huge task: ok={huge_ready['ok']} hygiene={huge_ready['hygiene']}")
    t1 = time.monotonic()
    for j in range(args.jobs):
        send({"op": "verify", "job": j, "task_key": "outer", "sample_id": j, "backend": "triton",
              "code": bad if j == args.jobs - 1 else good, "timing": False,
              "timeouts": {"compile": 300, "correct": 600}})
    verdicts = {}
    while len(verdicts) < args.jobs:
        v = recv()
        if v.get("op") != "verdict":
            print("message:", v)
            continue
        verdicts[v["job"]] = v
        print(f"job {v['job']}: {v['status']} {v['reasons']} after {time.monotonic() - t1:.1f} s "
              f"(own {v['duration_ms'] / 1000:.1f} s): {v['message'][:160]}")
    send({"op": "shutdown"})
    proc.wait(timeout=60)
    stop.set()
    out_bytes = m * n * 4
    print(f"output per call: {out_bytes / 1e9:.2f} GB; host MemAvailable at start {start_avail / 2**30:.1f} GiB, "
          f"lowest {low[0] / 2**30:.1f} GiB (drop {(start_avail - low[0]) / 2**30:.1f} GiB)")
    ok = ready["ok"] and not huge_ready["ok"] and any(h["code"] == "REF_TOO_LARGE" for h in huge_ready["hygiene"])
    ok = ok and all(verdicts[j]["status"] == "PASS" for j in range(args.jobs - 1))
    ok = ok and verdicts[args.jobs - 1]["status"] == "FAIL_MISMATCH"
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
