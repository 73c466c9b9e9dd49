"""GPU timing (the brief's method): L2 flush with a buffer of twice the L2 before every call, CUDA
events, a device-wide synchronize inside the timed region (work hidden on a side stream is still
counted), warm-up that absorbs JIT and autotuning, fresh inputs for every call, adaptive repeats until
the standard error is under 0.1% of the mean, capped in count and time."""
import math
import statistics
from dataclasses import dataclass

WARMUP = 3
MIN_RUNS = 10
MAX_RUNS = 100  # the KernelBench-style harnesses time 100 trials; the SEM target usually stops sooner for slow kernels
MAX_SECONDS = 2.0
TARGET_SEM = 0.001


@dataclass
class Tools:
    sync: object
    Event: object
    record: object
    elapsed: object
    perf: object
    device: object
    l2_bytes: int


def flush_buffer(tools):
    """The buffer whose zeroing flushes L2 before every call (small on the CPU, where nothing is timed)."""
    import torch
    n = max(2 * tools.l2_bytes, 1 << 24) if tools.Event is not None else (1 << 16)
    return torch.empty(n // 4, dtype=torch.int32, device=tools.device)


def call(tools, fn, args, flush_buf, poison_bytes=0):
    """The one way the sample's model is called, for checks, the probe and timed runs alike: (optionally)
    poison what the caching allocator will hand out next, flush L2, synchronise, events around the call and
    a device-wide synchronise inside them. Returns (output, milliseconds or None)."""
    import torch
    if poison_bytes and tools.Event is not None:
        # a block as large as the outputs, filled with NaN bytes and freed into the caching allocator:
        # torch.empty in the forward gets poison, never a freed block that still holds an earlier result
        blk = torch.empty(int(poison_bytes), dtype=torch.uint8, device=tools.device)
        blk.fill_(255)
        del blk
    flush_buf.zero_()
    tools.sync()
    if tools.Event is None:  # the CPU: the same call, timed by the clock (tests of the timing path)
        t0 = tools.perf()
        with torch.no_grad():
            out = fn(*args)
        return out, (tools.perf() - t0) * 1e3
    start, end = tools.Event(enable_timing=True), tools.Event(enable_timing=True)
    tools.record(start)
    with torch.no_grad():
        out = fn(*args)
    tools.sync()
    tools.record(end)
    end.synchronize()
    return out, tools.elapsed(start, end)


def measure(tools, fn, input_sets, call=None, keep=None, max_runs=MAX_RUNS, max_seconds=MAX_SECONDS, before=None):
    """Times fn on fresh clones of the input sets (max_runs, max_seconds: the run's caps, sieve-cli verify
    --timing-max-runs/--timing-budget-ms). call(fn, args) -> (out, ms) makes each call (default:
    the module's call with its own flush buffer); keep(k, idx, out) sees every call's output (the candidate's
    timing keeps one at random to compare); k counts calls, idx is the input set; before(idx) runs before each call on set idx, outside the
    timed region."""
    import torch
    if call is None:
        flush_buf = flush_buffer(tools)

        def call(f, a):
            return globals()["call"](tools, f, a, flush_buf)

    def fresh(k):
        return [t.clone() if isinstance(t, torch.Tensor) else t for t in input_sets[k % len(input_sets)]]
    times = []
    k = 0
    for k in range(WARMUP):
        if before:
            before(k % len(input_sets))
        out, _ = call(fn, fresh(k))
        if keep:
            keep(k, k % len(input_sets), out)
        del out
    deadline = tools.perf() + max_seconds
    while True:
        k += 1
        if before:
            before(len(times) % len(input_sets))
        out, ms = call(fn, fresh(len(times)))
        if keep:
            keep(k, len(times) % len(input_sets), out)
        del out
        times.append(ms)
        n = len(times)
        if n >= MIN_RUNS:
            mean = statistics.fmean(times)
            sem = statistics.stdev(times) / math.sqrt(n)
            if sem < TARGET_SEM * mean or n >= max(MIN_RUNS, max_runs) or tools.perf() > deadline:
                break
    return {"median_ms": statistics.median(times), "mean_ms": statistics.fmean(times),
            "std_ms": statistics.stdev(times), "runs": len(times)}
