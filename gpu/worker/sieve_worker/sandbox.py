"""The candidate child's sandbox, applied after fork and before the candidate's code runs.

Layers (each one holds for what the others miss): own process group + parent-death signal, a fresh
network namespace, rlimits, a scrubbed environment, cwd in a scratch folder, inherited fds closed,
setuid/setgid nobody when the interpreter is reachable for nobody, and audit hooks that record and
block sockets, subprocesses, forks and writes outside the allowed folders. Violations are sent to the
worker at once, so a candidate that catches the PermissionError is still reported.
"""
import ctypes
import os
import resource
import signal
import stat
import sys

NOBODY = 65534
KEEP_ENV = ("PATH", "LANG", "LC_ALL", "TRITON_INTERPRET", "TRITON_CACHE_DIR", "TRITON_F32_DEFAULT",
            "CUDA_VISIBLE_DEVICES", "CUDA_HOME", "CUDA_PATH", "LD_LIBRARY_PATH", "TORCHINDUCTOR_CACHE_DIR",
            "TORCH_EXTENSIONS_DIR", "TORCHINDUCTOR_COMPILE_THREADS", "TRITON_PTXAS_PATH", "NVIDIA_VISIBLE_DEVICES")
LIB_DIRS = []  # package folders whose own calls may spawn compilers (ptxas, ninja, gcc)


def _libc():
    return ctypes.CDLL(None, use_errno=True)


def set_pdeathsig():
    PR_SET_PDEATHSIG = 1
    _libc().prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def unshare_network():
    CLONE_NEWNET = 0x40000000
    try:
        if hasattr(os, "unshare"):
            os.unshare(CLONE_NEWNET)
            return True
        return _libc().unshare(CLONE_NEWNET) == 0
    except OSError:
        return False


def reachable_by_others(path):
    """True when nobody can reach path: every folder on the way traversable (by 'other', or by nobody as
    its owner) and the path itself readable."""
    path = os.path.realpath(path)
    leaf = True
    while True:
        try:
            st = os.stat(path)
        except OSError:
            return False
        is_dir = stat.S_ISDIR(st.st_mode)
        need_other = stat.S_IXOTH if is_dir else stat.S_IROTH
        need_owner = stat.S_IXUSR if is_dir else stat.S_IRUSR
        if leaf and is_dir:
            need_other |= stat.S_IROTH
            need_owner |= stat.S_IRUSR
        if not ((st.st_mode & need_other) == need_other or
                (st.st_uid == NOBODY and (st.st_mode & need_owner) == need_owner)):
            return False
        leaf = False
        parent = os.path.dirname(path)
        if parent == path:
            return True
        path = parent


class Auditor:
    def __init__(self, report, allowed_dirs):
        self.report = report
        self.allowed = [os.path.realpath(d) for d in allowed_dirs]
        self.inside = False
        self.recorded = set()

    def allowed_path(self, path):
        try:
            p = os.path.realpath(os.fsdecode(path))
        except Exception:
            return False
        if p in ("/dev/null", "/dev/zero", "/dev/urandom") or p.startswith("/dev/shm/") or p.startswith("/dev/nvidia"):
            return True
        return any(p == d or p.startswith(d + os.sep) for d in self.allowed)

    def from_library(self):
        """The nearest caller outside the stdlib is triton's or torch's own code (compilers they run)."""
        f = sys._getframe(1)
        stdlib = os.path.dirname(os.__file__)
        here = __file__
        while f is not None:
            fn = f.f_code.co_filename
            if fn == here:
                f = f.f_back
                continue
            if not fn.startswith(stdlib) or "site-packages" in fn or "dist-packages" in fn:
                return any(fn.startswith(d) for d in LIB_DIRS)
            f = f.f_back
        return False

    def violate(self, code, detail):
        key = (code, detail[:200])
        if key not in self.recorded:
            self.recorded.add(key)
            try:
                self.report(code, detail)
            except Exception:
                pass
        raise PermissionError(f"sieve sandbox: {code}: {detail}")

    def __call__(self, event, args):
        if self.inside:
            return
        self.inside = True
        try:
            self.check(event, args)
        finally:
            self.inside = False

    def check(self, event, args):
        if event == "open":
            path, mode, flags = args
            if isinstance(path, int):
                return
            writing = False
            if isinstance(mode, str):
                writing = any(c in mode for c in "wax+")
            if isinstance(flags, int):
                writing = writing or bool(flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND))
            if writing and not self.allowed_path(path):
                self.violate("WRITE_OUTSIDE_SCRATCH", f"open({path!r}, {mode!r}) for writing")
        elif event in ("os.remove", "os.unlink", "os.rmdir", "os.mkdir", "os.chmod", "os.chown", "os.truncate",
                       "os.symlink", "os.link", "os.rename", "os.replace", "shutil.rmtree", "os.utime"):
            for a in args[:2]:
                if isinstance(a, (str, bytes, os.PathLike)) and not self.allowed_path(a):
                    self.violate("WRITE_OUTSIDE_SCRATCH", f"{event}({a!r})")
        elif event.startswith("socket.") and event != "socket.gethostname":
            if not self.from_library():
                self.violate("NETWORK", f"{event}{args!r}"[:300])
        elif event in ("subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "pty.spawn",
                       "os.startfile"):
            if not self.from_library():
                self.violate("SUBPROCESS", f"{event}{args!r}"[:300])
        elif event in ("os.fork", "os.forkpty"):
            self.violate("FORK_LIMIT", f"{event}: candidates may not fork")
        elif event == "os.kill" or event == "os.killpg":
            if args and args[0] not in (os.getpid(), 0):
                self.violate("SUBPROCESS", f"{event}{args!r}")


def vm_bytes():
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def apply(scratch, keep_fds, limits, on_cpu, allowed_dirs, report, extra_env, cpu_seconds, nproc, need_paths=()):
    """Returns a dict describing what was applied (goes into the verdict log)."""
    applied = {}
    set_pdeathsig()
    applied["network_namespace"] = unshare_network()
    # rlimits: fork bombs, runaway files, core dumps, CPU time, memory (CPU mode only)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    fsize = 1 << 30
    resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 5))
    if on_cpu:
        mem = vm_bytes() + int(limits.get("memory_mb", 4096)) * (1 << 20)
        resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
    resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
    # opt-in until it has run on the GPU machine (see README): SIEVE_SANDBOX_SETUID=1
    want_setuid = os.environ.get("SIEVE_SANDBOX_SETUID", "0") == "1"
    env = {k: os.environ[k] for k in KEEP_ENV if k in os.environ}
    env.update({"HOME": scratch, "TMPDIR": scratch, "PYTHONDONTWRITEBYTECODE": "1"})
    env.update(extra_env)
    os.environ.clear()
    os.environ.update(env)
    os.chdir(scratch)
    # drop to nobody when root and the interpreter's packages stay importable for nobody
    applied["setuid_nobody"] = False
    if os.geteuid() == 0:
        import torch
        import triton
        paths = [torch.__file__, triton.__file__, sys.executable, scratch, *need_paths]
        blocked = [p for p in paths if not reachable_by_others(p)]
        if not want_setuid:
            applied["setuid_skipped"] = "SIEVE_SANDBOX_SETUID is not 1"
        elif blocked:
            applied["setuid_skipped"] = f"not reachable by nobody: {blocked[0]}"
        if want_setuid and not blocked:
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            applied["setuid_nobody"] = True
    keep = set(keep_fds) | {0, 1, 2}
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        if fd not in keep:
            try:
                os.close(fd)
            except OSError:
                pass
    import torch
    import triton
    LIB_DIRS[:] = [os.path.dirname(torch.__file__) + os.sep, os.path.dirname(triton.__file__) + os.sep]
    sys.dont_write_bytecode = True
    sys.addaudithook(Auditor(report, allowed_dirs))
    return applied
