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
