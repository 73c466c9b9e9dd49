"""The zygote: a fresh interpreter that imported torch, triton and the child module and nothing of the worker,
and forks one sandboxed candidate per request.

    python -m sieve_worker.sandbox.zygote FD --device cpu|cuda:N     (started by the worker, never by hand)

The worker starts it with a scrubbed environment and no fd but its end of a SOCK_SEQPACKET socketpair (FD).
A request is one message: JSON {"op": "spawn", "ctx": {...}, "names": [...]} with the fds named by "names"
attached (SCM_RIGHTS); the last one, "status", is the worker's status pipe. For each request the zygote
forks an intermediate, which enters new namespaces (sandbox.enter_namespaces) and forks the candidate, PID 1
of its PID namespace. The intermediate writes JSON lines on the status pipe: {"pid": P} (the candidate's pid
as the worker sees it), then {"status": S} (its wait status) when it is gone; the candidate adds
{"applied": {...}} (what the sandbox did) before any of the sample's code runs and then closes the pipe.
The zygote never initialises CUDA (the candidate does, after its fork) and holds no references, job state,
cache paths beyond the compiler caches, or the worker's environment.
"""
import json
import os
import socket
import sys
import time
import traceback

# the worker's own modules: none of them is imported here, so no candidate inherits any of their state
WORKER_MODULES = ("sieve_worker.worker", "sieve_worker.tasks.serving", "sieve_worker.candidate.messages",
                  "sieve_worker.candidate.verdicts", "sieve_worker.candidate.job", "sieve_worker.candidate.launch",
                  "sieve_worker.rules", "sieve_worker.sandbox.probes", "sieve_worker.static.static",
                  "sieve_worker.data.compare")

MAX_MSG = 1 << 20
MAX_FDS = 16


def write_status(fd, obj):
    data = (json.dumps(obj) + "\n").encode()
    while data:
        data = data[os.write(fd, data):]


def candidate(ctx, fds, status, ns):
    """The candidate process (PID 1 of its namespaces): stdio to the log, then child.main; never returns."""
    try:
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
        os.dup2(fds["log"], 1)
        os.dup2(fds["log"], 2)
        sys.stdout = open(1, "w", buffering=1, closefd=False)
        sys.stderr = open(2, "w", buffering=1, closefd=False)
        from ..candidate import child
        ctx = dict(ctx)
        ctx["_ns"] = ns
        child.main(ctx, {**fds, "status": status})
    except BaseException:
        try:
            traceback.print_exc()
        except BaseException:
            pass
    finally:
        os._exit(4)


def spawn(sock, msg, fdlist):
    names = msg["names"]
    if len(names) != len(fdlist) or names[-1] != "status":
        for fd in fdlist:
            os.close(fd)
        raise ValueError("spawn: fds and names differ")
    fds = dict(zip(names, fdlist))
    status = fds.pop("status")
    zygote = os.getpid()
    pid = os.fork()
    if pid:
        for fd in fdlist:
            os.close(fd)
        return pid
    # the intermediate: trusted, holds the status pipe, waits for the candidate
    code = 0
    try:
        sock.close()
        os.setsid()
        from . import sandbox
        sandbox.bind_to_parent(zygote)
        msg["ctx"]["sandbox_uid"] = sandbox.sandbox_uid()
        ns = sandbox.enter_namespaces()
        intermediate = os.getpid()
        cpid = os.fork()
        if cpid == 0:
            sandbox.bind_to_parent(intermediate)
            candidate(msg["ctx"], fds, status, ns)
        for fd in fds.values():
            os.close(fd)
        write_status(status, {"pid": cpid})
        while True:
            try:
                _, st = os.waitpid(cpid, 0)
                break
            except InterruptedError:
                continue
        write_status(status, {"status": st})
    except BaseException as e:
        try:
            write_status(status, {"error": f"{type(e).__name__}: {e}"[:500]})
        except BaseException:
            pass
        code = 5
    os._exit(code)


def preload_triton_driver():
    """Triton builds its CUDA utilities (driver.c, with gcc) the first time a process uses its driver, into
    TRITON_CACHE_DIR. Every answer has a compiler cache of its own, so the zygote builds them once, into
    its own cache, and its forks inherit the loaded module and the driver object. Nothing here touches CUDA
    (a fork after that would be poisoned): the driver is made directly, not through is_active()."""
    try:
        from triton.backends.nvidia.driver import CudaDriver
        from triton.runtime.driver import driver
        d = CudaDriver()
        driver._default = d
        driver.set_active(d)
        return True
    except Exception as e:  # another Triton: each candidate builds them itself, as before
        print(f"[sieve_zygote] Triton's driver not preloaded: {type(e).__name__}: {e}", file=sys.stderr, flush=True)
        return False


def main():
    fd = int(sys.argv[1])
    device = sys.argv[sys.argv.index("--device") + 1] if "--device" in sys.argv else "cpu"
    sock = socket.socket(fileno=fd)
    t0 = time.monotonic()
    from . import sandbox
    sandbox.set_pdeathsig()  # never outlive the worker
    import torch  # noqa: F401
    import triton  # noqa: F401
    import triton.language  # noqa: F401
    try:
        import triton.runtime.interpreter  # noqa: F401
    except ImportError:
        pass
    if device == "cpu":
        from ..candidate.hooks import fix_interpreter_scalars
        fix_interpreter_scalars()
    else:
        import torch.profiler  # noqa: F401
    import torch.nn.functional  # noqa: F401
    from ..candidate import child  # noqa: F401  (and with it hooks, taskref, timing)
    from ..candidate import wall
    wall_mod = wall.preload()  # the runtime wall, loaded here so no candidate has to read or build it
    features = sandbox.prepare(device)  # on a GPU: probes landlock with CUDA in throw-away children
    if device != "cpu":
        features["triton_driver_preloaded"] = preload_triton_driver()
    leaked = []
    for n in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{n}")
        except OSError:
            continue  # the listing's own fd, closed by now
        if int(n) not in (0, 1, 2, fd):
            leaked.append(f"{n}:{target}")
    ready = {"op": "ready", "pid": os.getpid(), "import_s": round(time.monotonic() - t0, 3), "features": features,
             "cuda_initialized": bool(torch.cuda.is_initialized()),
             "modules_of_worker": sorted(m for m in sys.modules if m in WORKER_MODULES),
             "wall": wall_mod is not None,
             "fds": leaked}
    sock.send(json.dumps(ready).encode())
    while True:
        try:
            while os.waitpid(-1, os.WNOHANG)[0] > 0:
                pass
        except ChildProcessError:
            pass
        try:
            data, fdlist, _, _ = socket.recv_fds(sock, MAX_MSG, MAX_FDS)
        except InterruptedError:
            continue
        except OSError:
            break
        if not data:
            break
        try:
            msg = json.loads(data)
            if msg.get("op") != "spawn":
                raise ValueError(f"unknown op {msg.get('op')!r}")
            spawn(sock, msg, fdlist)
        except Exception as e:
            for f in fdlist:
                try:
                    os.close(f)
                except OSError:
                    pass
            print(f"[sieve_zygote] {type(e).__name__}: {e}", file=sys.stderr, flush=True)
    os._exit(0)


if __name__ == "__main__":
    main()
