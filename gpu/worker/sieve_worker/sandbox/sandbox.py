"""The candidate's OS-level sandbox, applied in the zygote's child before anything of the sample is loaded.

Layers (each holds for what the others miss; docs/VERIFIER.md, "Sandbox and threat model"):
- namespaces, entered by the zygote's intermediate process: PID (the candidate is PID 1 of its own
  namespace: it sees no other process, and every process it leaves behind dies with it), mount (a private
  /proc, empty tmpfs over the cache and scratch roots, /tmp, /dev/shm and any folder the sandbox uid cannot
  traverse, with only the paths the candidate needs bound back), network (no interfaces), IPC and UTS;
  with a user namespace when the worker is not root;
- another uid/gid (nobody) when the worker is root, or uid 0 of a user namespace without capabilities;
- rlimits (processes, file size, CPU time, core dumps; address space in CPU mode);
- a scrubbed environment, cwd and HOME in the scratch folder, every fd closed but the named ones;
- a cgroup of its own (cgroups.py: memory, pids, CPU weight), joined first;
- no_new_privs, landlock (reads only what it needs: readrules.py; writes only in scratch and the compiler caches,
  exec only of the compiler binaries Triton runs, no TCP, no signals or abstract sockets out of the domain),
- seccomp-bpf (no sockets but AF_UNIX, no ptrace or process_vm_*, no mount/unshare/setns/namespace clones,
  no uid changes, no keyrings, bpf, perf, modules, io_uring, ...);
- audit hooks that report what they see (they are a reporter, not a wall: the kernel layers are the wall).
What the kernel lacks is recorded in the returned dict ("applied"), which goes into the verdict, and in
the worker's hello environment; nothing falls back silently.
"""
import ctypes
import errno
import json
import os
import platform
import resource
import shutil
import signal
import socket
import struct
import subprocess
import sys

from .readrules import host_roots, python_paths, read_rules  # noqa: F401 (python_paths: used here and by others)

NOBODY = 65534
# With a mount namespace (the scratch folder is the candidate's own tmpfs) each candidate gets a uid of
# its own, so RLIMIT_NPROC and file ownership are per job; the gid (nogroup) is shared, umask 002, so the
# answer's compiler caches (one per code, launch.candidate_caches) stay writable when it runs again.
# The uid is SANDBOX_UID_BASE + the host pid of the zygote's intermediate (sandbox_uid), unique on the
# machine while the candidate lives, whichever worker (another GPU, a Slurm shard, a second run) started
# it. Without a mount namespace, every candidate is nobody.
SANDBOX_UID_BASE = 1_500_000_000


def sandbox_uid():
    """The uid of the candidate this process (the zygote's intermediate, its parent) starts: unique on the
    machine as long as the intermediate lives, which is as long as the candidate does (pid_max <= 2**22)."""
    return SANDBOX_UID_BASE + os.getpid()
CHROOT_ROOT = ("the root folder is not a mount point (a chroot?), so the candidate's mounts cannot be kept "
               "private: run Sieve on the machine, in a container, or bind-mount the chroot onto itself first")
KEEP_ENV = ("PATH", "LANG", "LC_ALL", "CUDA_VISIBLE_DEVICES", "CUDA_HOME", "CUDA_PATH", "LD_LIBRARY_PATH",
            "TRITON_PTXAS_PATH", "NVIDIA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES", "TRITON_LIBCUDA_PATH")
# Who a sandboxed process is, without the password database: its uid has no entry there, and
# getpass.getuser() (torch's compile caches call it at import) raises KeyError then. On the H200 a task server's
# meta-device size estimate failed that way for every KernelBench task, so the large ones got no small derived
# shape and every check ran twice at full size. getuser() reads these first.
IDENTITY_ENV = {"USER": "sieve", "LOGNAME": "sieve"}
LIB_DIRS = []  # package folders whose own calls may spawn compilers (ptxas, gcc)

CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS, CLONE_NEWIPC = 0x20000, 0x02000000, 0x04000000, 0x08000000
CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x10000000, 0x20000000, 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = \
    1, 2, 4, 8, 32, 4096, 16384, 1 << 18

_LIBC = None


def _libc():
    global _LIBC
    if _LIBC is None:
        _LIBC = ctypes.CDLL(None, use_errno=True)
    return _LIBC


def _check(ret, what):
    if ret != 0:
        e = ctypes.get_errno()
        raise OSError(e, f"{what}: {os.strerror(e)}")
    return ret


# The process this one must not outlive: set in a fork by bind_to_parent, or handed to a fresh interpreter
# the worker exec'd in PARENT_ENV (taken out of the environment here, so nothing below inherits it).
PARENT_ENV = "SIEVE_PARENT_PID"
_PARENT = int(os.environ.pop(PARENT_ENV, "0") or 0) or None


def parent_env():
    """The environment entry that binds a process exec'd from this one to it (see set_pdeathsig)."""
    return {PARENT_ENV: str(os.getpid())}


def bind_to_parent(parent):
    """In a fresh fork: dies with `parent`, the pid that forked it (its os.getpid() before the fork)."""
    global _PARENT
    _PARENT = parent
    set_pdeathsig()


def set_pdeathsig():
    """SIGKILL when the parent dies, and _exit now if it already has: PR_SET_PDEATHSIG alone misses a parent
    that died between the fork and this call, and the child would live on, orphaned, in the scratch folder
    of a run that was killed (it is left alone then, and nothing removes it). A process whose parent is
    outside its pid namespace sees ppid 0 and cannot tell; its parent waits for it."""
    PR_SET_PDEATHSIG = 1
    _libc().prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if _PARENT and os.getppid() not in (_PARENT, 0):
        os._exit(137)


def close_fds_except(*keep):
    """In a trusted fork of the worker: closes every inherited fd above stderr but keep. A long-lived fork
    must not hold other jobs' output buffers (GBs of memfd each) or pipe ends past their jobs; stdin, the
    engine's channel, becomes /dev/null."""
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    last = 3
    for fd in sorted(set(keep)):
        if fd >= 3:
            os.closerange(last, fd)
            last = fd + 1
    os.closerange(last, os.sysconf("SC_OPEN_MAX") if os.sysconf("SC_OPEN_MAX") > 0 else 65536)


def unshare(flags):
    _check(_libc().unshare(ctypes.c_int(flags)), f"unshare({flags:#x})")


def mount(src, target, fstype, flags, data=None):
    enc = lambda s: None if s is None else os.fsencode(s)
    _check(_libc().mount(enc(src), enc(target), enc(fstype), ctypes.c_ulong(flags), enc(data)),
           f"mount {src} on {target}")


def unshare_network():
    """Used by the native path (a trusted child that execs sieve-cli)."""
    try:
        unshare(CLONE_NEWNET)
        return True
    except OSError:
        return False


# ---- the zygote's preparation (trusted, once) --------------------------------------------------------------
def compiler_binaries():
    """The executables Triton 3.x runs for a CUDA kernel: the C compiler driver and the programs it runs
    (cc1, as, collect2, ld) for the launcher stub, ptxas (triton's own, else CUDA's), and ldconfig (libcuda
    lookup), plus the ELF interpreter they need; real paths, as landlock sees them."""
    found = set()

    def add(p):
        if p and os.path.isfile(p) and os.access(p, os.X_OK):
            found.add(os.path.realpath(p))
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    add(cc)
    add(shutil.which("gcc"))
    for prog in ("cc1", "collect2", "as", "ld", "lto-wrapper"):
        try:
            out = subprocess.run([cc or "gcc", f"-print-prog-name={prog}"], capture_output=True, text=True,
                                 timeout=20).stdout.strip()
            add(out if os.sep in out else shutil.which(out))
        except (OSError, subprocess.SubprocessError):
            pass
    for name in ("as", "ld", "ldconfig", "ldconfig.real"):
        add(shutil.which(name) or (f"/sbin/{name}" if os.path.exists(f"/sbin/{name}") else None))
    try:
        import triton
        add(os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", "ptxas"))
    except ImportError:
        pass
    add(os.environ.get("TRITON_PTXAS_PATH"))
    add(shutil.which("ptxas"))
    for ld in ("/lib64/ld-linux-x86-64.so.2", "/lib/ld-linux-aarch64.so.1"):
        add(ld)
    return sorted(found)


PREPARED = {}


def in_fork(fn, failed):
    """fn() in a throw-away child, for what this process must not do itself (initialise CUDA, restrict
    itself): fn's JSON result, or `failed` when the child died before it sent one. fn handles its own
    exceptions. Here, not in probes.py: the zygote uses it, and no worker module may be imported there
    (a candidate inherits the zygote's modules: red-team fixture rt_gc_worker_scan)."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(r)
            os.write(w, json.dumps(fn()).encode())
        finally:
            os._exit(0)
    os.close(w)
    data = b""
    while True:
        chunk = os.read(r, 65536)
        if not chunk:
            break
        data += chunk
    os.close(r)
    os.waitpid(pid, 0)
    try:
        return json.loads(data)
    except ValueError:
        return failed


def probe_landlock(device):
    """For a GPU: the strictest landlock variant under which CUDA starts, each tried in a throw-away fork
    (this process must not initialise CUDA). Returns (name or None, {name: error})."""
    import tempfile

    errors = {}
    scratch = tempfile.mkdtemp(prefix="sieve-landlock-probe-")
    for name, variant in landlock_variants().items():
        def probe(variant=variant):
            try:
                no_new_privs()
                reads = ["/"] if variant.get("read_any") else read_rules()
                landlock(reads, [scratch, "/dev/shm"], PREPARED.get("exec") or [], ["/dev"], variant)
                import torch
                torch.empty(1, device=device)
                torch.cuda.synchronize()
                return "ok"
            except BaseException as e:
                return f"{type(e).__name__}: {e}"[-300:]
        res = in_fork(probe, "the probe died")
        if res == "ok":
            shutil.rmtree(scratch, ignore_errors=True)
            return name, errors
        errors[name] = res
    shutil.rmtree(scratch, ignore_errors=True)
    return None, errors


def root_is_mount_point():
    """Whether "/" is a mount point of this process's namespace (os.path.ismount says yes in a chroot too);
    a chroot's /proc/self/mountinfo lists only the mounts below its root. True when /proc cannot tell."""
    try:
        with open("/proc/self/mountinfo") as f:
            return any(line.split()[4] == "/" for line in f if len(line.split()) > 4)
    except OSError:
        return True


def prepare(device="cpu"):
    """Run in the zygote before any candidate: what the kernel offers and what the sandbox will allow."""
    PREPARED["exec"] = compiler_binaries()
    PREPARED["root"] = os.geteuid() == 0
    feats = {"root": PREPARED["root"], "landlock_abi": landlock_abi(), "seccomp": seccomp_arch() is not None,
             "arch": platform.machine(), "exec_allowed": PREPARED["exec"]}
    try:
        with open("/proc/sys/user/max_user_namespaces") as f:
            feats["user_namespaces"] = int(f.read()) > 0
    except (OSError, ValueError):
        feats["user_namespaces"] = False
    missing = []
    if feats["landlock_abi"] < 1:
        missing.append("landlock")
    elif device != "cpu":
        name, errors = probe_landlock(device)
        feats["landlock_variant"] = name or "none"
        if errors:
            feats["landlock_probe_errors"] = errors
        PREPARED["landlock_variant"] = name
        if name is None:
            missing.append("landlock (CUDA does not start under any variant)")
    if not feats["seccomp"]:
        missing.append(f"seccomp (no filter for {platform.machine()})")
    if not feats["root"] and not feats["user_namespaces"]:
        missing.append("namespaces (not root and no user namespaces)")
    if not root_is_mount_point():
        missing.append("mount namespace (" + CHROOT_ROOT + ")")
    feats["missing"] = missing
    return feats


# ---- namespaces (the intermediate process) -----------------------------------------------------------------
def enter_namespaces():
    """Unshares PID, mount, network, IPC and UTS namespaces (with a user namespace when not root); the next
    fork is PID 1 of the new PID namespace. Returns what it did."""
    ns = {}
    flags = CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS
    uid, gid = os.geteuid(), os.getegid()
    if uid != 0:
        flags |= CLONE_NEWUSER
    try:
        unshare(flags)
        ns.update(pid_namespace=True, mount_namespace=True, network_namespace=True)
        if uid != 0:
            with open("/proc/self/setgroups", "w") as f:
                f.write("deny")
            with open("/proc/self/uid_map", "w") as f:
                f.write(f"0 {uid} 1")
            with open("/proc/self/gid_map", "w") as f:
                f.write(f"0 {gid} 1")
            ns["user_namespace"] = True
    except OSError as e:
        ns.update(pid_namespace=False, mount_namespace=False, namespace_error=str(e))
        try:
            unshare(CLONE_NEWNET)
            ns["network_namespace"] = True
        except OSError:
            ns["network_namespace"] = False
    return ns


# ---- mounts (the candidate, PID 1, before dropping privileges) ---------------------------------------------
def _traversable_by_others(path):
    try:
        return bool(os.stat(path).st_mode & 0o001)
    except OSError:
        return False


def _under(p, root):
    return p == root or p.startswith(root.rstrip(os.sep) + os.sep)


def hide(read_paths, write_paths, hide_roots):
    """Puts an empty tmpfs over each hide root and over every folder on the way to a needed path that the
    sandbox uid could not traverse, then binds the needed paths back (read-only, or writable). Returns the
    roots hidden."""
    need = {}
    for p in read_paths:
        if os.path.exists(p):
            need.setdefault(os.path.realpath(p), False)
    for p in write_paths:
        if os.path.exists(p):
            need[os.path.realpath(p)] = True
    roots = {os.path.realpath(r) for r in hide_roots if os.path.isdir(r)}
    for p in need:
        a = os.path.dirname(p)
        while a != os.sep:
            if not _traversable_by_others(a):
                roots.add(a)
            a = os.path.dirname(a)
    roots = sorted(r for r in roots if r != os.sep)
    roots = [r for r in roots if not any(o != r and _under(r, o) for o in roots)]
    binds = sorted(p for p in need if any(_under(p, r) for r in roots))
    # a needed path inside another needed path comes with it (unless it needs write access and the outer not)
    binds = [p for p in binds if not any(o != p and _under(p, o) and (need[o] or not need[p]) for o in binds)]
    fds = {p: os.open(p, os.O_PATH | os.O_CLOEXEC) for p in binds}
    old = os.umask(0o022)
    try:
        for r in roots:
            mount("tmpfs", r, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=64k")
        for p in binds:
            if os.path.isdir(f"/proc/self/fd/{fds[p]}"):
                os.makedirs(p, 0o755, exist_ok=True)
            else:
                os.makedirs(os.path.dirname(p), 0o755, exist_ok=True)
                os.close(os.open(p, os.O_WRONLY | os.O_CREAT, 0o644))
            mount(f"/proc/self/fd/{fds[p]}", p, None, MS_BIND | MS_REC)
            if not need[p]:
                mount(None, p, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV)
        for r in roots:
            mount(None, r, None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, "mode=0755")
    finally:
        os.umask(old)
        for fd in fds.values():
            os.close(fd)
    return roots


# ---- landlock ----------------------------------------------------------------------------------------------
LL_EXEC, LL_WRITE, LL_READ, LL_READDIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
LL_RMDIR, LL_RMFILE, LL_MKCHAR, LL_MKDIR, LL_MKREG, LL_MKSOCK, LL_MKFIFO, LL_MKBLOCK, LL_MKSYM = \
    (1 << i for i in range(4, 13))
LL_REFER, LL_TRUNCATE, LL_IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
SYS_LANDLOCK_CREATE, SYS_LANDLOCK_ADD, SYS_LANDLOCK_RESTRICT = 444, 445, 446


def landlock_abi():
    if platform.machine() not in ("x86_64", "aarch64"):
        return 0
    r = _libc().syscall(SYS_LANDLOCK_CREATE, None, ctypes.c_size_t(0), ctypes.c_uint32(1))
    return max(0, r)


# Landlock variants, strictest first. CUDA's driver fails to initialise (error 304) under the strictest
# one on some drivers; the zygote probes them with a CUDA start in a throw-away child (probe_landlock) and
# the candidates use the first that works; the choice is in the hello env and in every verdict.
LANDLOCK_VARIANTS = (
    ("strict", {}),
    ("no_ioctl_rule", {"ioctl": False}),
    ("no_scopes", {"scope": False}),
    ("no_ioctl_rule_no_scopes", {"ioctl": False, "scope": False}),
    ("proc_writable", {"proc_write": True}),
    ("exec_anywhere", {"exec_any": True}),
    ("write_anywhere", {"write_any": True}),
)


def landlock_variants():
    """Every variant with the candidate's reads confined (read_rules), then, should CUDA start under none
    of them, each again with reads anywhere ("<name>+read_anywhere"): the last resort, named as such in
    the hello env and the verdict."""
    out = dict(LANDLOCK_VARIANTS)
    out.update({f"{n}+read_anywhere": {**v, "read_any": True} for n, v in LANDLOCK_VARIANTS})
    return out


def landlock(read_dirs, write_dirs, exec_files, dev_dirs, variant=None):
    """Restricts this process (and what it starts) for good. Returns the ABI used."""
    v = variant or {}
    abi = landlock_abi()
    if abi < 1:
        raise OSError(errno.ENOSYS, "landlock is not available in this kernel")
    fs = (1 << 13) - 1
    if abi >= 2:
        fs |= LL_REFER
    if abi >= 3:
        fs |= LL_TRUNCATE
    if abi >= 5 and v.get("ioctl", True):
        fs |= LL_IOCTL_DEV
    if v.get("exec_any"):
        fs &= ~LL_EXEC
    net = 3 if abi >= 4 else 0  # BIND_TCP | CONNECT_TCP, no rule: no TCP at all
    scoped = 3 if abi >= 6 and v.get("scope", True) else 0  # abstract unix sockets and signals stay inside
    attr = struct.pack("<QQQ", fs, net, scoped)[:8 if abi < 4 else 16 if abi < 6 else 24]
    buf = ctypes.create_string_buffer(attr, len(attr))
    rs = _libc().syscall(SYS_LANDLOCK_CREATE, buf, ctypes.c_size_t(len(attr)), ctypes.c_uint32(0))
    if rs < 0:
        raise OSError(ctypes.get_errno(), "landlock_create_ruleset")
    file_rights = LL_EXEC | LL_WRITE | LL_READ | (LL_TRUNCATE if abi >= 3 else 0) | (LL_IOCTL_DEV if abi >= 5 else 0)

    def rule(path, rights):
        try:
            fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
        except OSError:
            return
        try:
            if not os.path.isdir(f"/proc/self/fd/{fd}"):
                rights &= file_rights
            rb = ctypes.create_string_buffer(struct.pack("<Qi", rights & fs, fd), 12)
            if _libc().syscall(SYS_LANDLOCK_ADD, ctypes.c_int(rs), ctypes.c_int(1), rb, ctypes.c_uint32(0)) != 0:
                raise OSError(ctypes.get_errno(), f"landlock_add_rule {path}")
        finally:
            os.close(fd)
    if v.get("proc_write"):
        write_dirs = list(write_dirs) + ["/proc"]
    if v.get("write_any"):
        write_dirs = ["/"]
    try:
        for d in read_dirs:
            rule(d, LL_READ | LL_READDIR)
        for d in dev_dirs:
            rule(d, LL_READ | LL_READDIR | LL_WRITE | (LL_IOCTL_DEV if abi >= 5 else 0))
        write = fs & ~(LL_EXEC | LL_MKCHAR | LL_MKBLOCK | LL_IOCTL_DEV)
        for d in write_dirs:
            rule(d, write)
        for f in exec_files:
            rule(f, LL_EXEC | LL_READ | LL_READDIR)
        if _libc().syscall(SYS_LANDLOCK_RESTRICT, ctypes.c_int(rs), ctypes.c_uint32(0)) != 0:
            raise OSError(ctypes.get_errno(), "landlock_restrict_self")
    finally:
        os.close(rs)
    return abi


# ---- seccomp -----------------------------------------------------------------------------------------------
AUDIT_ARCH = {"x86_64": 0xC000003E}
# x86_64 numbers; each returns EPERM
DENY_X86_64 = {
    "ptrace": 101, "process_vm_readv": 310, "process_vm_writev": 311, "bpf": 321, "mount": 165, "umount2": 166,
    "unshare": 272, "setns": 308, "keyctl": 250, "add_key": 248, "request_key": 249, "perf_event_open": 298,
    "kexec_load": 246, "kexec_file_load": 320, "init_module": 175, "finit_module": 313, "delete_module": 176,
    "reboot": 169, "swapon": 167, "swapoff": 168, "pivot_root": 155, "chroot": 161, "acct": 163,
    "settimeofday": 164, "clock_settime": 227, "adjtimex": 159, "clock_adjtime": 305, "iopl": 172, "ioperm": 173,
    "quotactl": 179, "quotactl_fd": 443, "userfaultfd": 323, "open_by_handle_at": 304, "name_to_handle_at": 303,
    "setuid": 105, "setgid": 106, "setreuid": 113, "setregid": 114, "setresuid": 117, "setresgid": 119,
    "setfsuid": 122, "setfsgid": 123, "setgroups": 116, "capset": 126, "fanotify_init": 300, "open_tree": 428,
    "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433, "mount_setattr": 442,
    "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427, "pidfd_getfd": 438, "kcmp": 312,
    "process_madvise": 440, "lookup_dcookie": 212, "vhangup": 153, "syslog": 103, "uselib": 134,
    "sethostname": 170, "setdomainname": 171,
}
NR_SOCKET, NR_SOCKETPAIR, NR_CLONE, NR_CLONE3, NR_PRCTL, NR_PERSONALITY = 41, 53, 56, 435, 157, 135
DENY_PRCTL = (1, 8, 28, 35, 47, 0x59616D61)  # PDEATHSIG, KEEPCAPS, SECUREBITS, SET_MM, AMBIENT, PTRACER
# PR_SET_DUMPABLE to 0 only: the wall makes the candidate not dumpable (ffi.cpp shut_raw: /proc/self/mem is then
# root's), and the answer must not make it dumpable again
PR_SET_DUMPABLE = 4
NS_FLAGS = CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET
RET_ALLOW, RET_KILL_PROCESS, RET_ERRNO = 0x7FFF0000, 0x80000000, 0x00050000


def seccomp_arch():
    return AUDIT_ARCH.get(platform.machine())


def seccomp_program():
    """The BPF program as (code, jt, jf, k) tuples."""
    LD, JEQ, JSET, JGE, RET = 0x20, 0x15, 0x45, 0x35, 0x06
    eperm = RET_ERRNO | errno.EPERM
    p = [(LD, 0, 0, 4), (JEQ, 1, 0, seccomp_arch()), (RET, 0, 0, RET_KILL_PROCESS), (LD, 0, 0, 0),
         (JGE, 0, 1, 0x40000000), (RET, 0, 0, eperm)]  # no x32 ABI
    for nr in sorted(DENY_X86_64.values()):
        p += [(JEQ, 0, 1, nr), (RET, 0, 0, eperm)]
    p += [(JEQ, 0, 1, NR_CLONE3), (RET, 0, 0, RET_ERRNO | errno.ENOSYS)]  # flags in memory: glibc falls back to clone
    for nr in (NR_SOCKET, NR_SOCKETPAIR):  # AF_UNIX only
        p += [(JEQ, 0, 4, nr), (LD, 0, 0, 16), (JEQ, 0, 1, socket.AF_UNIX), (RET, 0, 0, RET_ALLOW),
              (RET, 0, 0, eperm)]
    p += [(JEQ, 0, 4, NR_CLONE), (LD, 0, 0, 16), (JSET, 0, 1, NS_FLAGS), (RET, 0, 0, eperm), (RET, 0, 0, RET_ALLOW)]
    block = [(LD, 0, 0, 16), (JEQ, 0, 4, PR_SET_DUMPABLE), (LD, 0, 0, 24), (JEQ, 0, 1, 0), (RET, 0, 0, RET_ALLOW),
             (RET, 0, 0, eperm)]
    for i, opt in enumerate(DENY_PRCTL):
        block.append((JEQ, len(DENY_PRCTL) - i, 0, opt))
    block += [(RET, 0, 0, RET_ALLOW), (RET, 0, 0, eperm)]
    p += [(JEQ, 0, len(block), NR_PRCTL)] + block
    p += [(JEQ, 0, 5, NR_PERSONALITY), (LD, 0, 0, 16), (JEQ, 2, 0, 0), (JEQ, 1, 0, 0xFFFFFFFF), (RET, 0, 0, eperm),
          (RET, 0, 0, RET_ALLOW)]
    p.append((RET, 0, 0, RET_ALLOW))
    return p


def seccomp():
    """Installs the filter (no_new_privs must be set). Returns the number of syscalls refused outright."""
    if seccomp_arch() is None:
        raise OSError(errno.ENOSYS, f"no seccomp filter for {platform.machine()}")
    prog = seccomp_program()
    raw = b"".join(struct.pack("<HBBI", *ins) for ins in prog)
    buf = ctypes.create_string_buffer(raw, len(raw))

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]
    fprog = SockFprog(len(prog), ctypes.cast(buf, ctypes.c_void_p))
    SYS_SECCOMP, SECCOMP_SET_MODE_FILTER = 317, 1
    if _libc().syscall(SYS_SECCOMP, ctypes.c_uint(SECCOMP_SET_MODE_FILTER), ctypes.c_uint(0), ctypes.byref(fprog)) != 0:
        raise OSError(ctypes.get_errno(), "seccomp(SECCOMP_SET_MODE_FILTER)")
    return len(DENY_X86_64) + 2


def no_new_privs():
    PR_SET_NO_NEW_PRIVS = 38
    _check(_libc().prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl(PR_SET_NO_NEW_PRIVS)")


def drop_capabilities():
    """uid 0 of a user namespace keeps no capabilities (the non-root path)."""
    hdr = ctypes.create_string_buffer(struct.pack("<Ii", 0x20080522, 0), 8)
    data = ctypes.create_string_buffer(b"\0" * 24, 24)
    _check(_libc().syscall(126, hdr, data), "capset")
    PR_CAPBSET_DROP = 24
    for cap in range(64):
        _libc().prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)


# ---- audit hooks (a reporter inside the process) -----------------------------------------------------------
class Auditor:
    def __init__(self, report, allowed_dirs, task_path=None):
        self.report = report
        self.task_path = os.path.realpath(task_path) if task_path else None
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

    def from_task(self):
        """The nearest caller outside the stdlib and this file is the task module's own code (reference code
        from a corpus, which the candidate imports too): the task's fault, not the sample's."""
        if not self.task_path:
            return False
        f = sys._getframe(1)
        stdlib = os.path.dirname(os.__file__)
        while f is not None:
            fn = f.f_code.co_filename
            if fn != __file__ and (not fn.startswith(stdlib) or "site-packages" in fn):
                try:
                    return os.path.realpath(fn) == self.task_path
                except (OSError, ValueError):
                    return False
            f = f.f_back
        return False

    def violate(self, code, detail):
        if self.from_task():
            code, detail = "TASK_" + code, f"the task module: {detail}"
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


AUDITOR = []  # the candidate's Auditor (apply), for task_loaded


def task_loaded():
    """The task module is imported (child.run, before any of the sample): from now on nothing the audit
    hooks see is the task's (a sample could otherwise compile its own code under the task's file name)."""
    if AUDITOR:
        AUDITOR[0].task_path = None


def vm_bytes():
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def apply(ctx, keep_fds, report, ns):
    """In the candidate (PID 1 of its namespaces when ns says so), before any of its code: returns a dict of
    what was applied and what was not (it goes into the verdict)."""
    applied = {k: v for k, v in ns.items()}
    missing = []
    scratch = ctx["scratch"]
    cg = ctx.get("cgroup")
    if cg and "error" not in cg:
        try:  # first: everything from here on (CUDA, the sample) is charged to the job's own budget
            from . import cgroups
            applied["cgroup"] = cgroups.join(cg)
        except OSError as e:
            missing.append(f"cgroup ({e})")
    else:
        missing.append("cgroup (" + ((cg or {}).get("error") or "none on this machine: see the hello env") + ")")
    caches = [d for d in ctx["allowed_dirs"] if d != scratch]
    root = os.geteuid() == 0 and not ns.get("user_namespace")
    if ns.get("mount_namespace"):
        if not root_is_mount_point():
            # a chroot: the mount that holds "/" cannot be reached to make it private, so every mount made
            # below would also appear in the host's namespace; refuse rather than leak
            raise OSError(errno.EINVAL, CHROOT_ROOT)
        mount(None, "/", None, MS_REC | MS_PRIVATE)
        if ns.get("pid_namespace"):
            mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
            applied["private_proc"] = True
        hidden_roots = list(ctx.get("hide_roots") or []) + ["/tmp", "/var/tmp"] + host_roots()
        applied["hidden"] = hide(read_rules(list(ctx.get("read_paths") or []) + [ctx["task_path"]]),
                                 [scratch] + caches, hidden_roots)
        # the scratch folder becomes a tmpfs of its own with a size limit (the candidate's file comes along;
        # the log stays on disk, open as fds 1 and 2)
        quota = int(ctx["limits"].get("scratch_mb", 512))
        with open(ctx["candidate_path"], "rb") as f:
            source = f.read()
        owner = int(ctx.get("sandbox_uid") or NOBODY) if root else 0
        group = NOBODY if root else 0
        mount("tmpfs", scratch, "tmpfs", MS_NOSUID | MS_NODEV, f"size={quota}m,mode=0700,uid={owner},gid={group}")
        with open(ctx["candidate_path"], "wb") as f:
            f.write(source)
        os.chown(ctx["candidate_path"], owner, group)
        applied["scratch_quota_mb"] = quota
        if os.path.isdir("/dev/shm"):  # the host's is hidden; a small private one for libraries that want it
            mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=64m,mode=1777")
            applied["private_dev_shm"] = True
    else:
        missing.append("mount namespace (" + ns.get("namespace_error", "unavailable") + ")")
    if not ns.get("pid_namespace"):
        missing.append("pid namespace")
    if not ns.get("network_namespace"):
        missing.append("network namespace")
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    fsize = int(ctx["limits"].get("file_mb", 1024)) << 20
    resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    resource.setrlimit(resource.RLIMIT_CPU, (ctx["cpu_seconds"], ctx["cpu_seconds"] + 5))
    if ctx["device"] == "cpu" and not applied.get("cgroup"):
        # without a cgroup, the address space is the only cap (a kernel budget of resident memory is better:
        # an address-space cap refuses reservations that never become memory)
        mem = vm_bytes() + int(ctx["limits"].get("memory_mb", 4096)) * (1 << 20)
        resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
    resource.setrlimit(resource.RLIMIT_NPROC, (ctx["nproc"], ctx["nproc"]))
    env = {k: os.environ[k] for k in KEEP_ENV if k in os.environ}
    env.update({"HOME": scratch, "TMPDIR": scratch, "PYTHONDONTWRITEBYTECODE": "1", **IDENTITY_ENV})
    env.update(ctx["env"])
    os.environ.clear()
    os.environ.update(env)
    os.chdir(scratch)
    import tempfile
    tempfile.tempdir = scratch  # the zygote may have cached /tmp (hidden, read-only here)
    if root:
        uid = int(ctx.get("sandbox_uid") or NOBODY) if "scratch_quota_mb" in applied else NOBODY
        os.setgroups([])
        os.setresgid(NOBODY, NOBODY, NOBODY)
        os.setresuid(uid, uid, uid)
        os.umask(0o002)
        applied["uid"] = uid
        applied["gid"] = NOBODY
    elif ns.get("user_namespace"):
        drop_capabilities()
        applied["uid"] = "0 of a user namespace, no capabilities"
    else:
        applied["uid"] = os.geteuid()
        missing.append("uid change (not root, no user namespace)")
    set_pdeathsig()  # after the credential change, which clears it
    _libc().prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)  # the credential change cleared it too: /proc/self/environ readable
    keep = set(keep_fds) | {0, 1, 2}
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        if fd not in keep:
            try:
                os.close(fd)
            except OSError:
                pass
    fds = []
    for name in sorted(os.listdir("/proc/self/fd"), key=int):
        try:
            fds.append(f"{name}:{os.readlink(f'/proc/self/fd/{name}')}")
        except OSError:
            pass  # the listing's own fd
    applied["fds"] = fds  # what the candidate holds when its code starts (before CUDA opens its own)
    no_new_privs()
    applied["no_new_privs"] = True
    execs = list(PREPARED.get("exec") or compiler_binaries())
    # no shell, ninja or C++/CUDA compiler for load_inline answers: their extensions are built outside the
    # candidate (builder.py) and imported from a read-only folder (docs/VERIFIER.md, Extension builder)
    name = PREPARED.get("landlock_variant", "strict")
    if name is None:
        applied["landlock_abi"] = 0
        missing.append("landlock (CUDA does not start under it on this machine: see the hello env)")
    else:
        try:
            shm = ["/dev/shm"] if applied.get("private_dev_shm") else []
            variant = landlock_variants().get(name) or {}
            reads = ["/"] if variant.get("read_any") else \
                read_rules(list(ctx.get("read_paths") or []) + [ctx["task_path"]],
                           own_proc=bool(applied.get("private_proc")))
            applied["landlock_abi"] = landlock(reads, [scratch] + caches + shm, execs, ["/dev"], variant)
            applied["landlock_variant"] = name
            applied["read_rules"] = reads
        except OSError as e:
            applied["landlock_abi"] = 0
            missing.append(f"landlock ({e})")
    try:
        applied["seccomp_denied"] = seccomp()
    except OSError as e:
        missing.append(f"seccomp ({e})")
    import torch
    import triton
    LIB_DIRS[:] = [os.path.dirname(torch.__file__) + os.sep, os.path.dirname(triton.__file__) + os.sep]
    sys.dont_write_bytecode = True
    AUDITOR[:] = [Auditor(report, ctx["allowed_dirs"], ctx.get("task_path"))]
    sys.addaudithook(AUDITOR[0])
    applied["missing"] = missing
    return applied
