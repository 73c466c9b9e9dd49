"""The trusted extension builder: `load_inline` answers are built outside the candidate.

The candidate's load_inline (extclient.py) sends its request to the worker; the worker validates it (the
flag allowlist is stage 0's, cppext.CFLAG_PATTERNS / LDFLAG_PATTERNS: one place), writes the sources with
the pybind11 glue torch's load_inline generates, and runs the build in a builder process of its own
(`python -m sieve_worker.extensions.builder DIR`) that narrows itself first: its own uid when the worker is root, no
network, a scrubbed environment, rlimits, no_new_privs, landlock (reads only the toolchain's and torch's
folders and its build folder, writes only its build folder, execs only the compilers) and seccomp. It
execs the compilers directly, never a shell or ninja: nvcc's own steps (which nvcc would run through
/bin/sh) come from `nvcc -dryrun` and are run one by one after checking each program against the
allowlist. The built module is judged by what it imports (elfimports.py) and cached by content hash
(sources, flags, arch, torch, CUDA and compiler versions); the candidate imports it from a read-only copy
in its job's folder. Builds are scheduled here (sched.py): a bounded number at once, queued beyond it;
their time limit counts the build, not the wait.
"""
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

from .. import WORKER_DIR
from ..static import cppext

MAX_REQUEST = 4 << 20  # bytes of a build request's JSON (sources included)
FIELDS = {"name", "cpp_sources", "cuda_sources", "sycl_sources", "functions", "extra_cflags",
          "extra_cuda_cflags", "extra_ldflags", "extra_include_paths", "with_cuda", "is_python_module",
          "with_pytorch_error_handling", "no_implicit_headers", "arch"}
# what nvcc's steps may run (nvcc -dryrun), by program name; anything else fails the build
NVCC_STEPS = {"gcc", "g++", "c++", "cc", "cudafe++", "cicc", "ptxas", "fatbinary", "nvlink", "cc1plus"}
ARCH = re.compile(r"\d{2,3}[af]?")


class Refused(Exception):
    """A request the builder will not build: code (EXTENSION_FLAGS, EXTENSION_SOURCE) and a message."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def validate(req):
    """The untrusted request -> a normalized one, or Refused naming the field."""
    if not isinstance(req, dict):
        raise Refused("EXTENSION_FLAGS", "the build request is not an object")
    extra = set(req) - FIELDS
    if extra:
        raise Refused("EXTENSION_FLAGS", f"the build request has unknown fields {sorted(extra)[:5]}")
    name = req.get("name")
    if not isinstance(name, str) or not cppext.IDENT.fullmatch(name) or len(name) > 100:
        raise Refused("EXTENSION_FLAGS", f"load_inline(name={str(name)[:60]!r}) is not an identifier")

    def strings(key):
        v = req.get(key) or []
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            raise Refused("EXTENSION_FLAGS", f"load_inline({key}=...) is not a list of strings")
        return v
    out = {"name": name}
    for key in ("cpp_sources", "cuda_sources"):
        out[key] = strings(key)
    if strings("sycl_sources"):
        raise Refused("EXTENSION_FLAGS", "load_inline(sycl_sources=...): SYCL is not built here")
    if [p for p in strings("extra_include_paths") if p.strip()]:
        raise Refused("EXTENSION_FLAGS", "load_inline(extra_include_paths=...): no include paths reach the build")
    if sum(len(s) for s in out["cpp_sources"] + out["cuda_sources"]) > cppext.MAX_SOURCE:
        raise Refused("EXTENSION_SOURCE", f"the extension's sources are larger than {cppext.MAX_SOURCE} bytes")
    for key, pats in (("extra_cflags", cppext.CFLAG_PATTERNS), ("extra_cuda_cflags", cppext.CFLAG_PATTERNS),
                      ("extra_ldflags", cppext.LDFLAG_PATTERNS)):
        flags = [f.strip() for f in strings(key) if f.strip()]
        for f in flags:
            if not any(p.fullmatch(f) for p in pats):
                raise Refused("EXTENSION_FLAGS", f"load_inline {key} flag {f[:80]!r} is outside the allowlist "
                                                 "(docs/VERIFIER.md, Extension builder)")
        out[key] = flags
    fns = req.get("functions")
    if fns is not None:
        if not isinstance(fns, list) or not all(isinstance(f, str) and cppext.IDENT.fullmatch(f) for f in fns):
            raise Refused("EXTENSION_FLAGS", "load_inline(functions=...) must be a list of identifiers")
    out["functions"] = fns
    if req.get("is_python_module", True) is not True:
        raise Refused("EXTENSION_FLAGS", "load_inline(is_python_module=False) loads a library into the process")
    wc = req.get("with_cuda")
    out["with_cuda"] = bool(out["cuda_sources"]) if wc is None else bool(wc)
    out["with_pytorch_error_handling"] = req.get("with_pytorch_error_handling", True) is not False
    out["no_implicit_headers"] = req.get("no_implicit_headers") is True
    arch = req.get("arch")
    out["arch"] = arch.replace(".", "") if isinstance(arch, str) and ARCH.fullmatch(arch.replace(".", "")) else None
    return out


def sources(req):
    """(main.cpp, cuda.cu or None) exactly as torch's load_inline writes them."""
    cpp = list(req["cpp_sources"])
    if not req["no_implicit_headers"]:
        cpp.insert(0, "#include <torch/extension.h>")
    if req["functions"] is not None:
        cpp.append("PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {")
        for f in req["functions"]:
            fn = f"torch::wrap_pybind_function({f})" if req["with_pytorch_error_handling"] else f
            cpp.append(f'm.def("{f}", {fn}, "{f}");')
        cpp.append("}")
    cuda = None
    if req["cuda_sources"]:
        cuda = list(req["cuda_sources"])
        if not req["no_implicit_headers"]:
            cuda[:0] = ["#include <torch/types.h>", "#include <cuda.h>", "#include <cuda_runtime.h>"]
        cuda = "\n".join(cuda)
    return "\n".join(cpp), cuda


# ---- the toolchain (trusted; found once per worker) ----------------------------------------------------------
TOOLCHAIN_PROBE = r"""
import json, os, sys, sysconfig
import torch, torch.utils.cpp_extension as ce
print(json.dumps({"torch": torch.__version__, "cuda": torch.version.cuda, "cuda_home": ce.CUDA_HOME,
  "include_cpu": ce.include_paths("cpu"), "include_cuda": ce.include_paths("cuda"),
  "python_include": sysconfig.get_path("include", scheme="posix_prefix"), "torch_lib": ce.TORCH_LIB_PATH,
  "nvcc_flags": ce.COMMON_NVCC_FLAGS, "cxx": ce.get_cxx_compiler(),
  "abi": [f for f in getattr(ce, "_get_glibcxx_abi_build_flags", lambda: [])()] +
         list(ce._get_pybind11_abi_build_flags())}))
"""


def _version(prog):
    try:
        return subprocess.run([prog, "--version"], capture_output=True, text=True, timeout=30).stdout[:300]
    except (OSError, subprocess.SubprocessError):
        return None


def _real(p):
    return os.path.realpath(p) if p and os.path.exists(p) else None


def _elf_compiler(path):
    """path when it is a compiled program: a wrapper script ($CXX=/opt/gcc/bin/g++ on the H200) would need a
    shell, which the builder never execs."""
    try:
        with open(os.path.realpath(path), "rb") as f:
            return path if f.read(4) == b"\x7fELF" else None
    except (OSError, TypeError):
        return None


def toolchain(python=None):
    """What a build uses and may touch: compilers (real paths), include and library folders, versions."""
    out = subprocess.run([python or sys.executable, "-c", TOOLCHAIN_PROBE], capture_output=True, text=True,
                         timeout=300, env={**os.environ, "CUDA_VISIBLE_DEVICES": ""})
    if out.returncode != 0:
        raise RuntimeError(f"the extension toolchain probe failed: {out.stderr[-800:]}")
    tc = json.loads(out.stdout.strip().splitlines()[-1])
    cxx = _elf_compiler(shutil.which(tc["cxx"])) or _elf_compiler(shutil.which("g++")) \
        or _elf_compiler(shutil.which("c++")) or shutil.which("g++")
    tc["cxx"] = _real(cxx)
    home = tc.get("cuda_home") or "/usr/local/cuda"
    nvcc = os.path.join(home, "bin", "nvcc")
    tc["nvcc"] = _real(nvcc)
    tc["cuda_home"] = _real(home)
    tc["versions"] = {"cxx": _version(cxx), "nvcc": _version(nvcc) if tc["nvcc"] else None}
    execs = set()
    for p in (cxx, shutil.which("gcc"), shutil.which("cc"), shutil.which("as"), shutil.which("ld")):
        if _real(p):
            execs.add(_real(p))
    for prog in ("cc1plus", "cc1", "collect2", "as", "ld", "lto-wrapper"):
        try:
            found = subprocess.run([cxx, f"-print-prog-name={prog}"], capture_output=True, text=True,
                                   timeout=20).stdout.strip()
            found = found if os.sep in found else shutil.which(found)
            if _real(found):
                execs.add(_real(found))
        except (OSError, subprocess.SubprocessError):
            pass
    if tc["nvcc"]:
        for d in ("bin", os.path.join("nvvm", "bin")):
            folder = os.path.join(tc["cuda_home"], d)
            for n in os.listdir(folder) if os.path.isdir(folder) else ():
                if n.split(".")[0] in NVCC_STEPS | {"nvcc"} and os.access(os.path.join(folder, n), os.X_OK):
                    execs.add(os.path.realpath(os.path.join(folder, n)))
    for ld in ("/lib64/ld-linux-x86-64.so.2", "/lib/ld-linux-aarch64.so.1"):
        if _real(ld):
            execs.add(_real(ld))
    tc["exec"] = sorted(execs)
    torch_dir = os.path.dirname(tc["torch_lib"])
    reads = {torch_dir, tc["python_include"], "/usr", "/lib", "/lib64", "/etc/ld.so.cache", "/etc/alternatives"}
    if tc["cuda_home"]:
        reads.add(tc["cuda_home"])
    if tc["cxx"] and not tc["cxx"].startswith("/usr/"):
        reads.add(os.path.dirname(os.path.dirname(tc["cxx"])))  # a compiler's own prefix (/opt/gcc): its specs, headers
    tc["read"] = sorted(p for p in reads if p and os.path.exists(p))
    tc["key"] = hashlib.sha256(json.dumps([tc["torch"], tc["cuda"], tc["versions"], tc["abi"]]).encode()).hexdigest()
    return tc


def cache_key(req, tc):
    return hashlib.sha256(json.dumps([req, tc["key"]], sort_keys=True).encode()).hexdigest()[:40]


def arch_flags(req, tc):
    if any("arch" in f for f in req["extra_cuda_cflags"]):
        return []  # the answer chose (torch's _get_cuda_arch_flags does the same)
    if req["arch"]:
        a = re.sub(r"[af]$", "", req["arch"])
        return [f"-gencode=arch=compute_{a},code=sm_{a}", f"-gencode=arch=compute_{a},code=compute_{a}"]
    return []


def plan(req, tc, build_dir):
    """The build's steps, argv lists (no shell anywhere): compile main.cpp (and cuda.cu), link."""
    name = req["name"]
    cpp, cuda = sources(req)
    with open(os.path.join(build_dir, "main.cpp"), "w") as f:
        f.write(cpp)
    with_cuda = req["with_cuda"]
    incs = tc["include_cuda"] if with_cuda else tc["include_cpu"]
    common = [f"-DTORCH_EXTENSION_NAME={name}", "-DTORCH_API_INCLUDE_EXTENSION_H"]
    for d in incs + [tc["python_include"]]:
        common += ["-isystem", d]
    common += tc["abi"]
    steps = [["cxx", tc["cxx"], "-MMD", *common, "-fPIC", "-std=c++20", *req["extra_cflags"],
              "-c", "main.cpp", "-o", "main.o"]]
    objs = ["main.o"]
    if cuda is not None:
        if not tc["nvcc"]:
            raise Refused("EXTENSION_SOURCE", "the extension has CUDA sources and this machine has no nvcc")
        with open(os.path.join(build_dir, "cuda.cu"), "w") as f:
            f.write(cuda)
        cflags = common + tc["nvcc_flags"] + arch_flags(req, tc) + ["--compiler-options", "-fPIC"]
        cflags += req["extra_cuda_cflags"]
        if not any(f.startswith("-std=") for f in cflags):
            cflags.append("-std=c++20")
        steps.append(["nvcc", tc["nvcc"], "-ccbin", tc["cxx"], *cflags, "-c", "cuda.cu", "-o", "cuda.o"])
        objs.append("cuda.o")
    ld = ["-shared", f"-L{tc['torch_lib']}", "-lc10"] + (["-lc10_cuda"] if with_cuda else []) + ["-ltorch_cpu"]
    ld += (["-ltorch_cuda"] if with_cuda else []) + ["-ltorch", "-ltorch_python"]
    if with_cuda and tc["cuda_home"]:
        lib = "lib64" if os.path.isdir(os.path.join(tc["cuda_home"], "lib64")) else "lib"
        ld += [f"-L{os.path.join(tc['cuda_home'], lib)}", "-lcudart"]
    steps.append(["link", tc["cxx"], *objs, *ld, *req["extra_ldflags"], "-o", f"{name}.so"])
    return steps


def write_plan(req, tc, build_dir, limit, uid=None):
    """The sources and plan.json of a build in build_dir (the builder process reads nothing else)."""
    steps = plan(req, tc, build_dir)
    stdlib = os.path.dirname(os.__file__)
    p = {"steps": steps, "limit_s": limit, "uid": uid, "exec": tc["exec"],
         "read": tc["read"] + [stdlib, os.path.join(stdlib, "lib-dynload"), os.path.dirname(sys.executable)],
         "path": os.pathsep.join(x for x in (os.path.dirname(tc["nvcc"] or ""), "/usr/bin", "/bin") if x),
         "limits": {"file_bytes": 1 << 30, "memory_bytes": 16 << 30, "cpu_s": int(limit) + 10}}
    with open(os.path.join(build_dir, "plan.json"), "w") as f:
        json.dump(p, f)
    if uid is not None:
        for x in [build_dir] + [os.path.join(build_dir, n) for n in os.listdir(build_dir)]:
            os.chown(x, uid, -1)


def spawn(build_dir):
    """The builder process for a prepared build_dir (its own session: killed as a group)."""
    from ..sandbox import sandbox
    pkg = WORKER_DIR
    return subprocess.Popen([sys.executable, "-m", "sieve_worker.extensions.builder", build_dir], cwd=build_dir,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                            env={"PATH": "/usr/bin:/bin", "PYTHONPATH": pkg, "LANG": "C", **sandbox.parent_env()},
                            start_new_session=True)


def build_sync(req, tc, build_dir, limit=600):
    """One build, waited for (tests and tools): the result dict; the module is build_dir/<name>.so."""
    os.makedirs(build_dir, exist_ok=True)
    write_plan(req, tc, build_dir, limit)
    proc = spawn(build_dir)
    out, _ = proc.communicate(timeout=limit + 30)
    try:
        with open(os.path.join(build_dir, "result.json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {"ok": False, "log": out.decode("utf-8", "replace")[-4000:]}


# ---- the builder process ---------------------------------------------------------------------------------
def nvcc_steps(argv, env, cwd, deadline, allowed):
    """nvcc's own steps, from -dryrun, as argv lists: variable settings applied to env, `rm` done here (inside
    the build folder only), every program checked against the compilers allowed. nvcc itself would run them through
    /bin/sh. allowed: the real paths of the programs a step may run."""
    out = subprocess.run(argv + ["-dryrun"], capture_output=True, text=True, env=env, cwd=cwd,
                         timeout=max(1, deadline - time.monotonic()))
    if out.returncode != 0:
        raise subprocess.CalledProcessError(out.returncode, argv, out.stdout, out.stderr)
    steps = []
    for line in out.stderr.splitlines():
        if not line.startswith("#$ "):
            continue
        cmd = line[3:].strip()
        m = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*)=(.*)", cmd)
        if m:
            words = shlex.split(m.group(2)) if m.group(2).strip() else [""]
            env[m.group(1)] = " ".join(words)
            continue
        words = [re.sub(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?", lambda v: env.get(v.group(1), ""), w)
                 for w in shlex.split(cmd)]
        if os.path.basename(words[0]) == "rm":
            steps.append(("rm", words[1:]))
            continue
        found = words[0] if os.sep in words[0] else shutil.which(words[0], path=env.get("PATH"))
        if not found or os.path.realpath(found) not in allowed:
            raise PermissionError(f"nvcc wants to run {words[0]!r}, which is not one of the compilers")
        steps.append(("run", words))
    return steps


def run_build(build_dir):
    """In the builder process, after narrow(): runs plan.json's steps; writes result.json. Exit 0 on a build."""
    with open(os.path.join(build_dir, "plan.json")) as f:
        p = json.load(f)
    deadline = time.monotonic() + p["limit_s"]
    env = {"PATH": p["path"], "LANG": "C", "LC_ALL": "C", "TMPDIR": build_dir, "HOME": build_dir}
    log = []
    for kind, *argv in p["steps"]:
        todo = nvcc_steps(argv, env, build_dir, deadline, set(p["exec"])) if kind == "nvcc" else [("run", argv)]
        for what, words in todo:
            if what == "rm":
                for w in words:
                    path = os.path.realpath(os.path.join(build_dir, w))
                    if path.startswith(build_dir + os.sep) and os.path.isfile(path):
                        os.unlink(path)
                continue
            r = subprocess.run(words, capture_output=True, text=True, env=env, cwd=build_dir,
                               timeout=max(1, deadline - time.monotonic()))
            log.append(f"$ {os.path.basename(words[0])} ... ({r.returncode})\n{r.stdout[-4000:]}{r.stderr[-8000:]}")
            if r.returncode != 0:
                return {"ok": False, "log": "\n".join(log)[-12000:]}
    return {"ok": True, "log": "\n".join(log)[-4000:]}


def _others_can_read(path):
    """Whether a uid of no group could reach path: every folder on the way traversable by others."""
    p = os.path.realpath(path)
    while p != os.sep:
        p = os.path.dirname(p)
        try:
            if not os.stat(p).st_mode & 0o001:
                return False
        except OSError:
            return False
    return True


def narrow(build_dir, tc_read, tc_exec, uid, limits):
    """The builder's own sandbox (sandbox.py's helpers): no network, rlimits, its own uid when root,
    no_new_privs, landlock (reads: the toolchain's folders; writes: the build folder; exec: the compilers),
    seccomp. Returns what it applied."""
    import resource

    from ..sandbox import sandbox
    applied = {"network_namespace": sandbox.unshare_network()}
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits["file_bytes"],) * 2)
    resource.setrlimit(resource.RLIMIT_AS, (limits["memory_bytes"],) * 2)
    resource.setrlimit(resource.RLIMIT_CPU, (limits["cpu_s"], limits["cpu_s"] + 5))
    private = [p for p in list(tc_read) + list(tc_exec) if not _others_can_read(p)]
    private += [p for p in tc_exec if os.path.isfile(p) and not os.stat(p).st_mode & 0o001]
    if os.geteuid() == 0 and uid and private:
        # the toolchain lies under a folder only this uid may traverse (a venv in /root, a compiler in a
        # private /opt folder): the builder keeps the worker's uid, still confined by landlock, seccomp and
        # its network namespace
        applied["uid"] = f"kept: {private[0]} is private"
        uid = None
    if os.geteuid() == 0 and uid:
        os.setgroups([])
        os.setresgid(sandbox.NOBODY, sandbox.NOBODY, sandbox.NOBODY)
        os.setresuid(uid, uid, uid)
        applied["uid"] = uid
    resource.setrlimit(resource.RLIMIT_NPROC, (64, 64))
    sandbox.set_pdeathsig()
    sandbox.no_new_privs()
    try:
        applied["landlock_abi"] = sandbox.landlock(tc_read + [build_dir], [build_dir], tc_exec, [])
    except OSError as e:
        applied["landlock"] = str(e)
    try:
        applied["seccomp_denied"] = sandbox.seccomp()
    except OSError as e:
        applied["seccomp"] = str(e)
    return applied


def main(argv):
    build_dir = os.path.realpath(argv[0])
    with open(os.path.join(build_dir, "plan.json")) as f:
        p = json.load(f)
    for fd in range(3, 1024):
        try:
            os.close(fd)
        except OSError:
            pass
    try:
        applied = narrow(build_dir, p["read"], p["exec"], p.get("uid"), p["limits"])
        res = run_build(build_dir)
        res["sandbox"] = applied
    except subprocess.TimeoutExpired:
        res = {"ok": False, "timeout": True, "log": "the build ran past its limit"}
    except BaseException as e:
        res = {"ok": False, "log": f"{type(e).__name__}: {e}"[-4000:]}
    tmp = os.path.join(build_dir, "result.json.tmp")
    with open(tmp, "w") as f:
        json.dump(res, f)
    os.rename(tmp, os.path.join(build_dir, "result.json"))
    return 0 if res["ok"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
