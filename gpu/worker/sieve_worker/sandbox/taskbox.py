"""The task servers' sandbox (trusted.main): reference code from mined corpora is untrusted too. Built from
the candidate's layers (sandbox.py): namespaces, another uid, landlock with the same read rules, seccomp, a
cgroup (cgroups.py), a scrubbed environment. docs/VERIFIER.md, "Task servers"."""
import os
import resource

from .sandbox import (CLONE_NEWNET, CLONE_NEWNS, CLONE_NEWUSER, IDENTITY_ENV, KEEP_ENV, MS_PRIVATE, MS_REC, NOBODY,
                      SANDBOX_UID_BASE, compiler_binaries, hide, host_roots, landlock, landlock_abi, mount,
                      no_new_privs, read_rules, root_is_mount_point, seccomp, set_pdeathsig, unshare, vm_bytes)

# One uid for every task server on the machine (they share the trusted compiler caches, which it owns); apart
# from the candidates' range (SANDBOX_UID_BASE + a pid). Task servers cannot see each other's memory:
# landlock lets them read only their own /proc entries.
TASK_SERVER_UID = SANDBOX_UID_BASE - 1


def scrubbed_env(extra=None):
    """The environment of a sandboxed process: KEEP_ENV only (no operator keys), HOME nowhere."""
    env = {k: os.environ[k] for k in KEEP_ENV if k in os.environ}
    env.update({"HOME": "/nonexistent", "PYTHONDONTWRITEBYTECODE": "1", "PYTHONNOUSERSITE": "1", **IDENTITY_ENV})
    env.update(extra or {})
    return env


def confine_server(spec):
    """In a task server (a fresh interpreter the worker exec'd with a scrubbed environment), before any task
    code: no network (a network namespace of its own; seccomp: AF_UNIX sockets only; landlock: no TCP), the
    task-server uid (as root), no_new_privs, landlock reads as a candidate's (read_rules with spec["read"])
    and writes only in spec["write"] (its scratch, the session's references, the trusted compiler caches),
    exec only of the compilers, rlimits (no core, file size; address space on the CPU when
    spec["memory_mb"]). Returns what it applied and what it lacked ("missing"), as apply() does. The
    landlock and seccomp part is in lock_server, after the device context is made (CUDA's start needs more
    than a reference does)."""
    applied, missing = {}, []
    root = os.geteuid() == 0
    uid = int(spec.get("uid", TASK_SERVER_UID))
    if spec.get("cgroup") and "error" not in spec["cgroup"]:
        from . import cgroups
        try:
            applied["cgroup"] = cgroups.join(spec["cgroup"])
        except OSError as e:
            missing.append(f"cgroup ({e})")
    else:
        missing.append("cgroup")
    os.makedirs(spec["scratch"], mode=0o700, exist_ok=True)
    if root:
        os.chown(spec["scratch"], uid, NOBODY)
    try:
        unshare(CLONE_NEWNET | CLONE_NEWNS if root else CLONE_NEWUSER | CLONE_NEWNET)
        applied["network_namespace"] = True
        if not root:
            applied["user_namespace"] = True
    except OSError as e:
        missing.append(f"network namespace ({e})")
    if root and applied.get("network_namespace") and root_is_mount_point():
        # as a candidate's: the host's other folders hidden, what the server needs bound back (its uid could
        # not traverse /root to the venv otherwise)
        mount(None, "/", None, MS_REC | MS_PRIVATE)
        applied["hidden"] = hide(read_rules(spec.get("read") or [], own_proc=False), list(spec.get("write") or []),
                                 list(spec.get("hide") or []) + ["/tmp", "/var/tmp"] + host_roots())
        applied["mount_namespace"] = True
    elif root:
        missing.append("mount namespace")
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    fsize = int(spec.get("file_mb", 16384)) << 20
    resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    if spec.get("memory_mb") and spec.get("device", "cpu") == "cpu":
        mem = vm_bytes() + int(spec["memory_mb"]) * (1 << 20)
        resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
        applied["address_space_mb"] = int(spec["memory_mb"])
    if root:
        os.setgroups([])
        os.setresgid(NOBODY, NOBODY, NOBODY)
        os.setresuid(uid, uid, uid)
        os.umask(0o077)
        applied["uid"] = uid
    else:
        missing.append("uid change (not root)")
    set_pdeathsig()  # the credential change cleared it
    os.chdir(spec["scratch"])
    applied["missing"] = missing
    return applied


def lock_server(spec, applied):
    """The rest of confine_server, once the server's device context exists: landlock, seccomp."""
    missing = applied.setdefault("missing", [])
    try:
        no_new_privs()
        applied["no_new_privs"] = True
    except OSError as e:
        missing.append(f"no_new_privs ({e})")
    if landlock_abi() < 1:
        missing.append("landlock")
    else:
        reads = read_rules(spec.get("read") or [], own_proc=False)
        # on a GPU the driver writes its own /proc files (the H200's needs it: proc_writable)
        variant = {"proc_write": True} if spec.get("device", "cpu") != "cpu" else {}
        try:
            applied["landlock_abi"] = landlock(reads, list(spec.get("write") or []) + ["/dev/shm"],
                                               compiler_binaries(), ["/dev"], variant)
            applied["read_rules"] = reads
            applied["write_rules"] = list(spec.get("write") or [])
        except OSError as e:
            missing.append(f"landlock ({e})")
    try:
        applied["seccomp_denied"] = seccomp()
    except OSError as e:
        missing.append(f"seccomp ({e})")
    return applied


def own_tree(path, uid):
    """As root: path and everything under it owned by uid (gid nogroup), so that a sandboxed task server
    writes it; the worker (root) still reads it. A no-op when not root."""
    if os.geteuid() != 0:
        return
    for d, dirs, files in os.walk(path):
        for name in [d] + [os.path.join(d, x) for x in dirs + files]:
            try:
                if os.lstat(name).st_uid != uid:
                    os.lchown(name, uid, NOBODY)
            except OSError:
                pass
