"""Budgets the kernel enforces: each candidate (and each task server) in a cgroup of its own, with a memory
limit (no swap), a pids limit and a CPU weight, on the CPU as on the GPU (issue 34 point 1). A candidate
that reaches its limit is killed by the kernel's OOM killer inside its cgroup, never an unrelated process;
the worker reads the cgroup's OOM count (memory.events, or memory.oom_control on cgroup v1) and the
verdict is FAIL_RUNTIME MEMORY_LIMIT naming the limit.

Where the worker's cgroups live (detect, once per worker, trusted):
- cgroup v2: a folder "sieve" at the root of the unified hierarchy (/sys/fs/cgroup, or /sys/fs/cgroup/unified
  on hybrid hosts) with memory and pids enabled in its subtree_control (root may do so there: the root
  cgroup has no "no internal processes" rule); one folder per job under "sieve/w<worker pid>";
- cgroup v1: the memory, pids and cpu hierarchies, each under the worker's own cgroup there.
Where neither can be written (not root, no delegation), `missing` says so: it goes into the hello env's
sandbox.missing and every verdict's sandbox field; the RLIMIT_AS cap on the CPU path stays.

The processes join their cgroup themselves, as root, before anything of the sample or the task runs
(join(), with the paths of the job's cgroup.procs files): writing "0" moves the writer.
"""
import os
import time

V2_ROOTS = ("/sys/fs/cgroup", "/sys/fs/cgroup/unified")
V1_ROOT = "/sys/fs/cgroup"


def _write(path, text):
    with open(path, "w") as f:
        f.write(text)


def _read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def _own_v1(controller):
    """The worker's cgroup path in a v1 hierarchy that has controller, from /proc/self/cgroup."""
    for line in _read("/proc/self/cgroup").splitlines():
        parts = line.split(":", 2)
        if len(parts) == 3 and controller in parts[1].split(","):
            return parts[2]
    return None


class Budgets:
    """The worker's cgroups: make(name, memory_bytes, pids, cpu_weight) for each job or server, oom_kills(cg),
    remove(cg). `mode` is "v2", "v1" or None (then `missing` says why)."""

    def __init__(self):
        self.mode, self.bases, self.missing = None, {}, None
        if os.geteuid() != 0:
            self.missing = "cgroups (not root: no cgroup of its own can be made for a candidate)"
            return
        tag = f"w{os.getpid()}"
        errors = []
        for root in V2_ROOTS:
            if "memory" not in _read(os.path.join(root, "cgroup.controllers")).split():
                continue
            try:
                top = os.path.join(root, "sieve")
                os.makedirs(top, exist_ok=True)
                _write(os.path.join(root, "cgroup.subtree_control"), "+memory +pids")
                ctl = _read(os.path.join(root, "cgroup.controllers")).split()
                want = " ".join(f"+{c}" for c in ("memory", "pids", "cpu") if c in ctl)
                _write(os.path.join(top, "cgroup.subtree_control"), want)
                base = os.path.join(top, tag)
                os.makedirs(base, exist_ok=True)
                _write(os.path.join(base, "cgroup.subtree_control"), want)
                self.mode, self.bases = "v2", {"unified": base}
                return
            except OSError as e:
                errors.append(f"v2 at {root}: {e.strerror or e}")
        bases = {}
        for ctl in ("memory", "pids", "cpu"):
            own = _own_v1(ctl)
            root = os.path.join(V1_ROOT, ctl)
            if own is None or not os.path.isdir(root):
                continue
            try:
                base = os.path.join(root, own.lstrip("/"), f"sieve-{tag}")
                os.makedirs(base, exist_ok=True)
                bases[ctl] = base
            except OSError as e:
                errors.append(f"v1 {ctl}: {e.strerror or e}")
        if "memory" in bases:
            self.mode, self.bases = "v1", bases
            return
        for b in bases.values():
            _rmdir(b)
        self.missing = "cgroups (" + ("; ".join(errors) or "no cgroup v2 with memory, no v1 memory hierarchy") + ")"

    def make(self, name, memory_bytes, pids=None, cpu_weight=100):
        """A cgroup for one job or server: {"dirs": [...], "procs": [...], "memory_bytes": n, ...} or None."""
        if self.mode is None:
            return None
        cg = {"mode": self.mode, "dirs": [], "procs": [], "memory_bytes": int(memory_bytes)}
        try:
            if self.mode == "v2":
                d = os.path.join(self.bases["unified"], name)
                os.makedirs(d, exist_ok=True)
                cg["dirs"].append(d)
                _write(os.path.join(d, "memory.max"), str(int(memory_bytes)))
                for f, v in (("memory.swap.max", "0"), ("memory.oom.group", "1")):
                    if os.path.exists(os.path.join(d, f)):
                        _write(os.path.join(d, f), v)
                if pids and os.path.exists(os.path.join(d, "pids.max")):
                    _write(os.path.join(d, "pids.max"), str(int(pids)))
                    cg["pids"] = int(pids)
                if os.path.exists(os.path.join(d, "cpu.weight")):
                    _write(os.path.join(d, "cpu.weight"), str(int(cpu_weight)))
                    cg["cpu_weight"] = int(cpu_weight)
                cg["procs"].append(os.path.join(d, "cgroup.procs"))
                cg["events"] = os.path.join(d, "memory.events")
            else:
                for ctl, base in self.bases.items():
                    d = os.path.join(base, name)
                    os.makedirs(d, exist_ok=True)
                    cg["dirs"].append(d)
                    if ctl == "memory":
                        _write(os.path.join(d, "memory.limit_in_bytes"), str(int(memory_bytes)))
                        sw = os.path.join(d, "memory.memsw.limit_in_bytes")
                        if os.path.exists(sw):
                            try:
                                _write(sw, str(int(memory_bytes)))  # no swap beyond the limit
                            except OSError:
                                pass
                        cg["events"] = os.path.join(d, "memory.oom_control")
                    elif ctl == "pids" and pids:
                        _write(os.path.join(d, "pids.max"), str(int(pids)))
                        cg["pids"] = int(pids)
                    elif ctl == "cpu":
                        _write(os.path.join(d, "cpu.shares"), str(int(cpu_weight * 1024 // 100)))
                        cg["cpu_weight"] = int(cpu_weight)
                    cg["procs"].append(os.path.join(d, "cgroup.procs"))
        except OSError as e:
            self.remove(cg)
            return {"error": f"cgroup {name}: {e.strerror or e}"}
        return cg

    @staticmethod
    def oom_kills(cg):
        """How many processes the kernel's OOM killer killed in the cgroup (its own limit)."""
        if not cg or not cg.get("events"):
            return 0
        for line in _read(cg["events"]).splitlines():
            k, _, v = line.partition(" ")
            if k == "oom_kill":
                try:
                    return int(v)
                except ValueError:
                    return 0
        return 0

    @staticmethod
    def remove(cg):
        for d in reversed((cg or {}).get("dirs") or []):
            _rmdir(d)

    def close(self):
        """At the worker's end: its folders (the jobs' ones are gone by then)."""
        for b in self.bases.values():
            for d in sorted((os.path.join(b, x) for x in os.listdir(b) if os.path.isdir(os.path.join(b, x))),
                            reverse=True) if os.path.isdir(b) else []:
                _rmdir(d)
            _rmdir(b)


def _rmdir(d, tries=20):
    """A cgroup folder goes once its last process is gone (reaped processes may linger an instant)."""
    for _ in range(tries):
        try:
            os.rmdir(d)
            return True
        except FileNotFoundError:
            return True
        except OSError:
            time.sleep(0.01)
    return False


def join(cg):
    """In the process to be budgeted (as root, before its uid changes): moves itself into the cgroup.
    Returns what it joined (for the sandbox record), or raises OSError."""
    if not cg or not cg.get("procs"):
        return None
    for p in cg["procs"]:
        _write(p, "0")
    return {k: cg[k] for k in ("mode", "memory_bytes", "pids", "cpu_weight") if k in cg}


