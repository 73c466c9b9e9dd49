"""What a sandboxed process (a candidate, a task server) may read: landlock's read rules and the mount
namespace's hidden top folders (issue 30, "Reads confined"; docs/VERIFIER.md, "Reads")."""
import os
import sys

def python_paths():
    """What the interpreter needs to read: its prefixes, its binary's folder, every folder on sys.path."""
    paths = {sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(os.path.realpath(sys.executable))}
    paths.update(p for p in sys.path if p and os.path.isdir(p))
    return sorted(paths)


# System folders (programs, libraries, headers, the kernel's /sys), read-only, as the interpreter, CUDA
# and the compilers Triton runs need them. Not /etc as a whole, /home, /root, /srv, /mnt, /opt, /work or
# any other folder of the host: what the candidate needs from those (the venv, the task module, CUDA,
# LD_LIBRARY_PATH) is named one by one (read_rules).
SYSTEM_READ = ("/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin", "/sys")
ETC_READ = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/ld.so.preload", "/etc/localtime",
            "/etc/nsswitch.conf", "/etc/alternatives", "/etc/gai.conf")
# /proc of the candidate's own PID namespace holds only its processes; without one, only these of it
PROC_READ = ("/proc/self", "/proc/thread-self", "/proc/driver", "/proc/cpuinfo", "/proc/meminfo", "/proc/stat",
             "/proc/sys", "/proc/filesystems", "/proc/mounts", "/proc/devices", "/proc/modules")
# top folders of "/" kept visible in the candidate's mount namespace; every other one is hidden (an empty
# tmpfs) with what the candidate needs from it bound back
SYSTEM_TOP = {"usr", "lib", "lib32", "lib64", "libx32", "bin", "sbin", "etc", "proc", "sys", "dev", "run", "var",
              "tmp", "boot", "lost+found"}


def read_rules(extra=(), own_proc=True):
    """The paths the candidate may read (besides its writable folders, devices and exec files): system
    folders, the ld.so and time files of /etc, the interpreter's folders and sys.path, the CUDA and
    library folders the environment names, and `extra` (the task module); real paths, existing ones only.
    own_proc: /proc is the candidate's own (a private /proc of its PID namespace)."""
    paths = list(SYSTEM_READ) + list(ETC_READ) + python_paths() + list(extra)
    paths += ["/proc"] if own_proc else list(PROC_READ)
    for var in ("LD_LIBRARY_PATH", "CUDA_HOME", "CUDA_PATH", "TRITON_LIBCUDA_PATH"):
        paths += [p for p in os.environ.get(var, "").split(os.pathsep) if p]
    ptxas = os.environ.get("TRITON_PTXAS_PATH")
    if ptxas:
        paths.append(os.path.dirname(os.path.dirname(ptxas)))
    if os.path.isdir("/usr/local/cuda"):
        paths.append("/usr/local/cuda")
    out = set()
    for p in paths:
        # "/" comes from sys.path ("python -m" puts the zygote's cwd, "/", first): never a rule of its own
        if p and os.path.exists(p) and os.path.realpath(p) != os.sep:
            rp = os.path.realpath(p)
            out.add(rp)
            if p.startswith("/proc/"):
                out.add(p)  # /proc/self resolves to this process's folder; keep the name for the record
    return sorted(out)


def host_roots():
    """The top folders of "/" the mount namespace hides (SYSTEM_TOP stays): /home, /root, /work, /srv, /mnt,
    /opt, /media and whatever else a host keeps there."""
    try:
        names = os.listdir("/")
    except OSError:
        return []
    return sorted(os.path.join("/", n) for n in names
                  if n not in SYSTEM_TOP and os.path.isdir(os.path.join("/", n))
                  and not os.path.islink(os.path.join("/", n)))
