"""Reference timing: the task's `Model` timed eager and under `torch.compile`, once per task and worker
session, in a task server of the worker (trusted.TaskServer, never in a candidate's process, so a candidate that
patches torch cannot touch the figures it is compared with).

Same method, same inputs as the candidate's timing (shape 0, the input sets of the first three (secret) seeds, the
brief's L2 flush and events) and the same per-GPU lock, so the two are measured alike in one session.
Inductor compiles before the lock is taken: its default mode does not benchmark on the GPU, so only the
compile's single execution overlaps another sample's timing, not a measured run.
"""
import fcntl
import time

from . import taskref
from .runmode import as_kernelbench_runs
from ..candidate import timing


def run(ctx, lock_fd):
    import torch
    torch.set_num_threads(4)
    device = torch.device(ctx["device"])
    gpu = device.type == "cuda"  # else a test of the timing path on the CPU (worker hello time_on_cpu): eager only
    if gpu:
        torch.cuda.set_device(device)  # Inductor's and Triton's kernels launch on the current device
    task = taskref.load_module(ctx["task_path"], "sieve_task_timing")
    taskref.apply_shape(task, ctx["shape"])
    seeds = ctx["seeds"]  # the secret seeds of the candidate's three timing input sets
    model = as_kernelbench_runs(taskref.build(task, task.Model, seeds[0], ctx["style"]).to(device))
    sets = [taskref.device_inputs(task, sd, device) for sd in seeds]
    notes = []
    nbytes = sum(t.numel() * t.element_size() for t in sets[0] if isinstance(t, torch.Tensor))
    with torch.no_grad():
        nbytes += sum(t.numel() * t.element_size() for t in taskref.flatten_outputs(model(*sets[0])))
    compiled = None
    t0 = time.perf_counter()
    if not gpu:
        notes.append("compile baseline omitted: on the CPU")
    try:
        if gpu:
            compiled = torch.compile(model)
            with torch.no_grad():
                compiled(*sets[0])
            torch.cuda.synchronize()
    except Exception as e:  # a baseline that fails says nothing about the samples: omitted with a note
        compiled = None
        notes.append(f"compile baseline omitted: {type(e).__name__}: {e}"[:500])
    compile_s = time.perf_counter() - t0
    tools = timing.Tools(torch.cuda.synchronize, torch.cuda.Event, torch.cuda.Event.record,
                         torch.cuda.Event.elapsed_time, time.perf_counter, device, ctx.get("l2_bytes") or (50 << 20)) \
        if gpu else timing.Tools(lambda: None, None, None, None, time.perf_counter, device, 0)
    results = []
    t1 = time.perf_counter()
    fcntl.flock(lock_fd, fcntl.LOCK_EX)
    waited_s = time.perf_counter() - t1
    try:
        for which, fn in (("eager", model), ("compile", compiled)):
            if fn is None:
                continue
            try:
                results.append({"shape_index": 0, "which": which, **timing.measure(tools, fn, sets)})
            except Exception as e:
                notes.append(f"{which} baseline omitted: {type(e).__name__}: {e}"[:500])
    finally:
        fcntl.flock(lock_fd, fcntl.LOCK_UN)
    return {"timings": results, "bytes_moved": nbytes, "notes": notes,
            "compile_seconds": round(compile_s, 3), "lock_wait_seconds": round(waited_s, 3)}
