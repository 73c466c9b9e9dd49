"""What the worker learns of its machine: the host's available memory, which physical GPU it drives, and the
environment its hello reports (versions, the GPU's name, L2 size and free memory). The worker never
initialises CUDA itself: what only CUDA can tell comes from a short-lived forked child (probe_device).
"""
import os
import platform
import subprocess

from . import sandbox


def mem_available():
    """The host's MemAvailable (bytes), from /proc/meminfo."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 8 << 30


def sched_times(pid):
    """(seconds on a CPU, seconds runnable but waiting for one) summed over the threads of pid and of its live
    child processes, from /proc/<tid>/schedstat (the scheduler's own accounting, no cgroup needed); None
    where the kernel does not keep it. The worker reads a candidate's at its stage's start and deadline: a
    stage that ran out of time while waiting for a CPU ran out of it because of the machine's load
    (rules.stage_load)."""
    if not pid:
        return None
    run = wait = 0
    seen = False
    todo, done = [pid], set()
    while todo:
        p = todo.pop()
        if p in done:
            continue
        done.add(p)
        try:
            tids = os.listdir(f"/proc/{p}/task")
        except OSError:
            continue
        for t in tids:
            try:
                with open(f"/proc/{p}/task/{t}/schedstat") as f:
                    a, b = f.read().split()[:2]
                run, wait, seen = run + int(a), wait + int(b), True
            except (OSError, ValueError):
                continue
            try:
                with open(f"/proc/{p}/task/{t}/children") as f:
                    todo.extend(int(c) for c in f.read().split())
            except (OSError, ValueError):
                pass
    return (run / 1e9, wait / 1e9) if seen else None


def physical_gpu(device):
    """The GPU nvidia-smi knows as this worker's device: CUDA_VISIBLE_DEVICES renumbers from 0."""
    if device == "cpu":
        return "cpu"
    idx = device.split(":")[1] if ":" in device else "0"
    visible = [v.strip() for v in os.environ.get("CUDA_VISIBLE_DEVICES", "").split(",") if v.strip()]
    if visible and idx.isdigit() and int(idx) < len(visible):
        return visible[int(idx)]
    return idx


def environment(device):
    import numpy
    import torch
    import triton
    env = {"python": platform.python_version(), "torch": torch.__version__, "triton": triton.__version__,
           "numpy": numpy.__version__, "device": device, "interpreted": device == "cpu"}
    if device != "cpu":
        idx = physical_gpu(device)
        env["physical_gpu"] = idx
        try:
            out = subprocess.run(["nvidia-smi", "-i", idx, "--query-gpu=name,driver_version,memory.total",
                                  "--format=csv,noheader"], capture_output=True, text=True, timeout=30).stdout
            name, driver, mem = [x.strip() for x in out.strip().split(",")]
            env.update({"gpu": name, "driver": driver, "gpu_memory": mem})
        except Exception as e:
            env["gpu_error"] = str(e)
        env["cuda"] = torch.version.cuda
        import torch._meta_registrations  # noqa: F401  (once here, not in every reference child)
        env.update(probe_device(device))
    return env


def probe_device(device):
    """L2 size and capability from a short-lived child: the worker itself must not initialise CUDA."""
    def probe():
        try:
            import torch
            p = torch.cuda.get_device_properties(torch.device(device))
            free, total = torch.cuda.mem_get_info(torch.device(device))
            return {"l2_bytes": int(getattr(p, "L2_cache_size", 0)), "gpu_total_bytes": int(p.total_memory),
                    "gpu_free_bytes": int(free), "capability": f"{p.major}.{p.minor}"}
        except Exception as e:
            return {"device_error": str(e)}
    return sandbox.in_fork(probe, {"device_error": "device probe failed"})
