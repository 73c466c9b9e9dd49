"""The runtime wall (docs/VERIFIER.md, "The runtime wall"): trusted code in every candidate, in place before any
of the answer is loaded, that sees every ATen operator dispatched in the answer's forward (from Python and from
its load_inline C++ alike) and refuses compute under the task's policy; it also neuters the Python entry points
that could switch it off, makes the CUDA answers' ablation probe, and names the answer's own GPU kernels
exactly (kernel accounting).

The observer is a small CPython extension (gpu/worker/wall/sieve_wall.cpp) that the worker builds with the
compiler directly (build(), cached in the worker's cache dir) and the candidate loads (Wall.start). Its state
is C++ statics; what it found goes to the worker as one JSON line per armed window ("t": "wall"), which
check_reports judges.
"""
import glob
import hashlib
import os
import struct
import subprocess
import sys
import sysconfig
import time
import types

from .. import WORKER_DIR

WALL_DIR = os.path.join(WORKER_DIR, "wall")
# the parts of the one shared object (sieve_wall.cpp: the module; wall.h: what they share), every .cpp and .h of
# the folder: each is compiled and in the build's cache key
SOURCES = sorted(glob.glob(os.path.join(WALL_DIR, "*.cpp")))
HEADERS = sorted(glob.glob(os.path.join(WALL_DIR, "*.h")))
POLICIES = ("strict", "kernelbench")
FREE, HARNESS, FORWARD = 0, 1, 2


def cache_dir():
    """Where the runtime wall is built and kept (build): SIEVE_WALL_CACHE, else a folder of this uid's."""
    return os.environ.get("SIEVE_WALL_CACHE") or os.path.expanduser("~/.cache/sieve/wall")


def build(cache_dir, log=None):
    """Builds (or finds) the wall extension for the installed torch and Python: (path, seconds spent). Each part is
    compiled on its own, all at once (torch's headers make each one slow: 91 s for the six in one g++ on a
    fresh H100 host, the first verdict's wait), then linked."""
    import torch
    tdir = os.path.dirname(torch.__file__)
    src = b""
    for p in SOURCES + HEADERS:
        with open(p, "rb") as f:
            src += os.path.basename(p).encode() + b"\0" + f.read() + b"\0"
    abi = int(torch._C._GLIBCXX_USE_CXX11_ABI)
    key = hashlib.sha256(src + f"\0{torch.__version__}\0{sys.version}\0{abi}\0objects".encode()).hexdigest()[:20]
    out_dir = os.path.join(cache_dir, "wall")
    path = os.path.join(out_dir, f"_sieve_wall_{key}.so")
    if os.path.exists(path):
        return path, 0.0
    os.makedirs(out_dir, exist_ok=True)
    t0 = time.monotonic()
    tmp = f"{path}.{os.getpid()}.tmp"
    cxx = os.environ.get("CXX", "g++")
    # hidden: the parts share their statics through wall.h, the object exports PyInit__sieve_wall alone
    flags = ["-O2", "-fPIC", "-fvisibility=hidden", "-std=c++20", f"-D_GLIBCXX_USE_CXX11_ABI={abi}",
             "-I", os.path.join(tdir, "include"), "-I", os.path.join(tdir, "include", "torch", "csrc", "api", "include"),
             "-I", sysconfig.get_paths()["include"]]
    objs = [f"{tmp}.{i}.o" for i in range(len(SOURCES))]
    procs = []
    try:
        for src_path, obj in zip(SOURCES, objs):
            procs.append(subprocess.Popen([cxx, *flags, "-c", src_path, "-o", obj], stdout=subprocess.DEVNULL,
                                          stderr=subprocess.PIPE, text=True))
        errs = [p.communicate(timeout=600)[1] for p in procs]
        failed = [e for p, e in zip(procs, errs) if p.returncode != 0]
        if failed:
            raise RuntimeError(f"building the runtime wall failed: {failed[0][-2000:]}")
        res = subprocess.run([cxx, "-shared", *objs, "-L", os.path.join(tdir, "lib"), "-ltorch_cpu", "-lc10",
                              f"-Wl,-rpath,{os.path.join(tdir, 'lib')}", "-o", tmp],
                             capture_output=True, text=True, timeout=600)
        if res.returncode != 0:
            raise RuntimeError(f"linking the runtime wall failed: {res.stderr[-2000:]}")
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
        for obj in objs:
            if os.path.exists(obj):
                os.remove(obj)
    os.replace(tmp, path)
    took = time.monotonic() - t0
    if log:
        log(f"runtime wall built in {took:.1f} s: {path}")
    return path, took


def load(path):
    import importlib.machinery
    import importlib.util
    loader = importlib.machinery.ExtensionFileLoader("_sieve_wall", path)
    spec = importlib.util.spec_from_file_location("_sieve_wall", path, loader=loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def preload():
    """In the zygote: loads the extension the worker built (SIEVE_WALL_SO) so every candidate inherits it
    loaded; its callback is registered only in the candidate (Wall.start). The module, or None."""
    path = os.environ.get("SIEVE_WALL_SO")
    if not path:
        return None
    mod = load(path)
    sys.modules["_sieve_wall"] = mod
    trust_modules(mod)  # the bulk of the walk (torch, triton, numpy), once: a candidate walks what it adds
    return mod


def trust_modules(mod, callers=()):
    """Tells the wall the code of every module loaded now (and of the calling stack) is the harness's, and which
    modules' code may itself make a guarded call (a tensor over foreign memory, Tensor.numpy): callers (the task
    module), and the data path (transport) its one torch.frombuffer over the harness's own mappings
    (REFUSE_BUT_MAPPING), never torch's own functions, which an answer could chain with C
    callables (functools.partial, map) for the harness to call in its phase (redteam/wall2 h_gadget_...), nor the
    raw-CUDA path's native.py, which never runs in a candidate and whose _save hands a numpy view to numpy.save
    (h_gadget_native_save_numpy). trusted.cpp w_trust: refused once the wall is initialised, before any of the
    answer loads."""
    from ..data import transport
    mod.trust([m for m in list(sys.modules.values()) if type(m).__name__ == "module"],
              [m for m in callers if type(m).__name__ == "module"], [transport])


REFUSE_ALWAYS, REFUSE_IN_FORWARD, REFUSE_TO_ANSWER, REFUSE_RAW, REFUSE_BUT_HARNESS = 0, 1, 2, 3, 4  # w_neuter
# the data path's (transport) own call, over one of the harness's mappings (Wall.start's mappings: the wall checks
# the object itself), in the write that follows a forward window; refused to everyone else (sieve_wall.cpp
# mapping_call_refused)
REFUSE_BUT_MAPPING = 5
# a tensor's values to Python with no op at all (Tensor.tolist; apply_, map_ and map2_ call a Python function on
# every element in C++, no ATen operator: redteam/wall2 h_apply_python_compute): refused in the forward, and in the
# harness's phase to all but the harness's own calls (the answer's code there holds the call's inputs and outputs:
# h_harness_attr_tolist_compute); the answer's constructor keeps them (guards.cpp kNeuterRead)
REFUSE_READ = 6
MAPPING_ONLY = {("torch", "frombuffer")}

# what makes a tensor over memory numpy, Python or a file mapping reaches, or hands a tensor's memory to them,
# without an op: refused to all but the harness's own calls (REFUSE_BUT_HARNESS). (owner, name): torch.X,
# torch._C.X, torch.UntypedStorage.X, the serializer's classes (torch.save/pickle into a BytesIO read a tensor's
# bytes, torch.load writes a storage's)
SHARED_MEMORY = [("torch", "from_numpy"), ("torch", "frombuffer"), ("torch", "from_file"), ("torch", "_from_blob"),
                 ("C", "_construct_storage_from_data_pointer"), ("C", "_gds_load_storage"), ("C", "_gds_save_storage")]
SHARED_MEMORY += [("storage", n) for n in (
    "from_file", "from_buffer", "_share_filename_cpu_", "_share_fd_cpu_", "_share_cuda_", "_new_shared_filename_cpu",
    "_new_shared_fd_cpu", "_new_using_filename_cpu", "_new_using_fd_cpu", "_new_shared_cuda", "_get_shared_fd",
    "_new_with_file", "_set_from_file", "_write_file", "_new_with_weak_ptr", "_set_cdata")]
SHARED_MEMORY += [("writer", "__init__"), ("reader", "__init__"), ("serializer", "__init__")]
# the JIT's serializers read a tensor's bytes in C++ too (torch.jit.save of a module that holds the input, the JIT
# pickler), and its loaders make tensors from bytes
SHARED_MEMORY += [("C", n) for n in (
    "_pickle_save", "_pickle_load_obj", "_save_jit_module", "_save_jit_module_to_bytes", "_save_mobile_module",
    "_save_mobile_module_to_bytes", "_save_parameters", "_load_jit_module_from_bytes",
    "_load_mobile_module_from_bytes", "import_ir_module_from_buffer", "_load_for_lite_interpreter_from_buffer",
    "_gds_register_buffer")]
SHARED_MEMORY += [("script", n) for n in ("save", "save_to_buffer", "_save_for_mobile", "_save_to_buffer_for_mobile")]
# TorchScript made or loaded: its interpreter runs prim ops (prim::tolist hands a tensor's values to Python) with no
# dispatcher call, and Static Runtime records its out variants under a scope of its own (redteam/wall2
# h_r11_torchscript_tolist, h_r11_static_runtime_softmax): no kernel answer needs a script, a trace or a loaded
# module, so making one is refused to all but the harness's own calls (REFUSE_BUT_HARNESS)
TORCHSCRIPT = [("C", n) for n in (
    "_jit_script_compile", "_jit_script_compile_overload", "_jit_script_class_compile", "_jit_script_interface_compile",
    "_create_function_from_graph", "_create_function_from_trace", "_create_function_from_trace_with_dict",
    "_jit_interpret_graph", "_jit_to_static_module", "_fuse_to_static_module", "_jit_to_backend",
    "_jit_to_backend_selective", "import_ir_module", "_import_ir_module_from_package", "_load_for_lite_interpreter",
    "_load_jit_module_from_file")]
TORCHSCRIPT += [("unit", n) for n in ("__init__", "define", "create_function")]
TORCHSCRIPT += [("script", n) for n in ("_define", "_create_method_from_trace", "_create_method_from_trace_with_dict")]
# the JIT's graphs evaluated or printed by other means (redteam/wall2 round 14): constant propagation runs a JIT-only
# op on a tensor constant (h_r14_constprop_jit_only_op; every _jit_pass_* is refused, entry_points), a ScriptList's
# repr prints its tensors' values (h_r14_scriptlist_repr_read), the ONNX exporter writes an initializer's bytes
# (h_r14_onnx_export_initializer_read), and NNC (torch._C._te) compiles and runs a loop nest with no op
# (h_r14_nnc_tensorexpr_softmax)
TORCHSCRIPT += [("C", "parse_ir"), ("graph", "__init__"), ("graph", "_export_onnx"), ("graph", "_pretty_print_onnx"),
                ("graph", "insertConstant"), ("scriptlist", "__init__"), ("scriptdict", "__init__"),
                ("te", "construct_codegen"), ("codegen", "call"), ("codegen", "call_raw"),
                ("tek", "__init__"), ("tek", "run"), ("tek", "fallback")]
# a captured graph replays torch's kernels with no op dispatched: softmax captured in the constructor over a buffer
# of the answer's, then in the forward the input copied there (copy_ is allowed), the graph replayed and the result
# copied out by a kernel of its own. No kernel answer needs one (stage 0's CUDA_GRAPHS): capture and replay, and the
# raw graph handles, are refused to all but the harness's own calls, for every device's graph class torch has
GRAPH_CLASSES = ("_CUDAGraph", "_acceleratorGraph", "_XPUGraph", "_MTIAGraph")
GRAPH_METHODS = ("capture_begin", "capture_end", "capture_end_pre", "instantiate", "replay", "raw_cuda_graph",
                 "raw_cuda_graph_exec", "begin_capture_to_if_node", "begin_capture_to_while_node")


# torch.Generator's methods that tell its seed or state (entry_points)
GENERATOR_READERS = ("initial_seed", "get_state", "graphsafe_get_state", "clone_state", "get_offset", "philox_state",
                     "__reduce__")


def entry_points(torch):
    """(function, mode, name) for every Python entry point of the installed torch that the wall refuses:
    REFUSE_ALWAYS (latches tampered) what switches RecordFunction off or removes its callbacks;
    REFUSE_IN_FORWARD what runs a kernel around the dispatcher, where RecordFunction does not run (torch uses
    them elsewhere); REFUSE_READ, in the forward and in the harness's phase but to its own calls, what hands a
    tensor's values to Python or a Python function with no op (tolist, apply_, map_, map2_); REFUSE_TO_ANSWER, in the forward and to the answer's code
    anywhere, what makes a view of a tensor's memory for numpy (made in __init__, it serves the forward all the
    same, where no op sees the compute); REFUSE_BUT_HARNESS, to all but the harness's own calls (its phase, its
    thread, trusted code made the call: trust_modules), SHARED_MEMORY (torch.frombuffer: REFUSE_BUT_MAPPING);
    REFUSE_RAW, to everyone, DLPack both ways
    (numpy.from_dlpack, Tensor.__dlpack__, torch.utils.dlpack: a writable view no op sees)."""
    C = torch._C
    found = []
    for mod, name in ((C._autograd, "_clear_callbacks"), (C._autograd, "_enable_record_function"),
                      (C._profiler, "_remove_execution_trace_observer")):
        f = getattr(mod, name, None)
        if f is not None:
            found.append((f, REFUSE_ALWAYS, name))
    for name in ("_to_dlpack", "_to_dlpack_versioned", "_from_dlpack"):
        f = getattr(C, name, None)
        if f is not None:
            found.append((f, REFUSE_RAW, f"DLPack (torch._C.{name})"))
    armed = [(C._DispatchOperatorHandle, "redispatch_boxed", REFUSE_IN_FORWARD),
             (C, "_dispatch_make_pyobj_dispatch_fns", REFUSE_IN_FORWARD),
             (getattr(C, "_SafeKernelFunction", None), "call_boxed", REFUSE_IN_FORWARD),
             (C.TensorBase, "numpy", REFUSE_TO_ANSWER)]
    armed += [(C.TensorBase, name, REFUSE_READ) for name in ("tolist", "apply_", "map_", "map2_")]
    # the generators' state read back (torch.initial_seed, get_rng_state, a clone, a pickle): while the harness makes
    # a check's inputs torch's generators hold the check's seed, which the wall set (seed.cpp) and no Python object of
    # the candidate's holds; code of the answer's that runs then (a profile function, a signal handler, a thread)
    # would read it there and remake the inputs in numpy (redteam/wall2 h_seed_state_dict_post_hook)
    armed += [(C.Generator, name, REFUSE_BUT_HARNESS) for name in GENERATOR_READERS]
    te = getattr(C, "_te", None)
    owners = {"torch": torch, "C": C, "storage": C.StorageBase, "writer": C.PyTorchFileWriter,
              "reader": C.PyTorchFileReader, "serializer": C.ScriptModuleSerializer, "script": C.ScriptModule,
              "unit": C.CompilationUnit, "graph": C.Graph, "scriptlist": getattr(C, "ScriptList", None),
              "scriptdict": getattr(C, "ScriptDict", None), "te": te, "codegen": getattr(te, "CodeGen", None),
              "tek": getattr(te, "TensorExprKernel", None)}
    armed += [(owners[o], name, REFUSE_BUT_MAPPING if (o, name) in MAPPING_ONLY else REFUSE_BUT_HARNESS)
              for o, name in SHARED_MEMORY + [e for e in TORCHSCRIPT if e not in SHARED_MEMORY]]
    armed += [(C, name, REFUSE_BUT_HARNESS) for name in dir(C) if name.startswith("_jit_pass_")]
    armed += [(getattr(C, k, None), name, REFUSE_BUT_HARNESS) for k in GRAPH_CLASSES for name in GRAPH_METHODS]
    for owner, name, mode in armed:
        if owner is None:
            continue
        if isinstance(owner, type):  # from the class that defines it (a pybind11 method may sit on a base)
            f = next((vars(k)[name] for k in owner.__mro__ if name in vars(k) and k is not object), None)
        else:
            f = getattr(owner, name, None)
        f = f.__func__ if isinstance(f, staticmethod) else f
        if f is not None:
            what = ("a generator's seed or state" if owner is C.Generator
                    else "TorchScript" if (next((o for o, v in owners.items() if v is owner), None), name) in TORCHSCRIPT
                    or name.startswith("_jit_pass_")
                    else "a captured graph" if getattr(owner, "__name__", "") in GRAPH_CLASSES
                    else "around the dispatcher or out of torch")
            found.append((f, mode, f"{getattr(owner, '__name__', '?')}.{name} ({what})"))
    return found


def triton_state(triton):
    """The dicts that decide what triton's driver compiles and loads: triton.knobs and its build, backend, cache and
    runtime knobs (an attribute set on one adds a key), the build helpers' and the loaded drivers' module globals."""
    knobs = getattr(triton, "knobs", None)
    found = [vars(knobs)] if knobs is not None else []
    found += [vars(getattr(knobs, k)) for k in ("build", "nvidia", "amd", "cache", "runtime")
              if knobs is not None and hasattr(getattr(knobs, k, None), "__dict__")]
    found += [vars(m) for name, m in list(sys.modules.items())
              if m is not None and (name == "triton.runtime.build" or (name.startswith("triton.backends.")
                                                                       and name.endswith(".driver")))]
    return found


def op_dks(torch):
    """The _op_dk of every OpOverload torch has made so far (torch.ops' namespaces cache them; ffi.cpp routes those
    made later as they are made): each calls a kernel for a dispatch key with no RecordFunction (guards.cpp
    route_op_dk). aten.add.default is made here if it is not yet, so that the wall's slot for them exists."""
    torch.ops.aten.add.default  # noqa: B018
    found = []
    for ns in list(vars(torch.ops).values()):
        if isinstance(ns, torch._ops._OpNamespace):
            for packet in list(vars(ns).values()):
                if isinstance(packet, torch._ops.OpOverloadPacket):
                    found += [ov._op_dk for ov in list(vars(packet).values())
                              if isinstance(ov, torch._ops.OpOverload) and getattr(ov, "_op_dk", None) is not None]
    return found


def data_guard(torch):
    """(functions, names, tensor types, TensorBase, plain types) for guards.cpp guard_data: the constructors
    that make a tensor from data, whose data must not be memory numpy or Python reaches unless the harness itself
    calls them (torch.as_tensor(a) of a numpy array shares its memory; of a list it copies and stays allowed)."""
    import numpy as np
    C = torch._C
    fns = [(C._VariableFunctions.as_tensor, "torch.as_tensor"), (C._VariableFunctions.asarray, "torch.asarray"),
           (C._VariableFunctions.tensor, "torch.tensor"), (vars(C.TensorBase)["new_tensor"], "Tensor.new_tensor"),
           (vars(C.TensorBase)["new"], "Tensor.new")]
    types = [C.TensorBase] + sorted(torch._tensor_classes, key=lambda t: f"{t.__module__}.{t.__name__}")
    plain = [torch.dtype, torch.device, torch.layout, torch.memory_format, np.number, np.bool_]
    return [f for f, _ in fns], [n for _, n in fns], types, C.TensorBase, plain


def _keep_frame_name(func, name):
    """torch.utils._contextlib._set_stack_frame_name in the candidate: frames keep their names."""


def code_roots(torch, triton):
    """The folders whose .pyc files the importer may unmarshal once the wall is up (ffi.cpp shut_raw): the standard
    library's, the site folders torch and triton come from, and the worker's; and Python's headers, which triton's
    launcher build includes (ffi.cpp process_fault: a compiler's paths name these or system folders); none the
    candidate can write."""
    import sysconfig
    from .. import __file__ as worker_init
    paths = sysconfig.get_paths()
    dirs = {os.path.dirname(os.__file__), paths["purelib"], paths["platlib"], paths.get("include"),
            paths.get("platinclude"), os.path.dirname(os.path.dirname(torch.__file__)),
            os.path.dirname(os.path.dirname(triton.__file__)), os.path.dirname(os.path.dirname(worker_init))}
    return folders(dirs)


def folders(dirs):
    """Each folder as given and as resolved, ending in a separator (the wall compares prefixes)."""
    return sorted({p.rstrip(os.sep) + os.sep for d in dirs if d for p in (d, os.path.realpath(d))})


def triton_cache(triton):
    """The candidate's Triton cache as its environment names it when the wall starts: triton's driver loads its
    launchers from there only (what the answer sets triton.knobs' cache folder to later is no reason to load)."""
    knobs = getattr(triton, "knobs", None)
    d = getattr(getattr(knobs, "cache", None), "dir", None) if knobs is not None else None
    return d or os.environ.get("TRITON_CACHE_DIR") or ""


class Wall:
    """The candidate's side: started before the answer loads, then phase changes around every forward."""

    def __init__(self, mod, policy):
        self.mod = mod
        self.policy = policy
        self.wrapped = set()
        self.ext_dirs = []
        self.seen = [0]  # sys.modules' and the loaded modules' count at the last look (wrap_extensions)
        self.loaded = []  # modules the builder's client loaded (load_inline's never enter sys.modules)

    @classmethod
    def start(cls, mod, fd, answer_path, ext_dirs, policy, interpreted, harness_modules, hook=None, ffi=(),
              callers=(), mappings=(), built_dir=None):
        """mod: the loaded extension (the zygote loads it: preload()); fd: the result pipe, where the reports
        go; harness_modules: modules (or objects) whose names must not change under the harness (the task's, the
        child's); hook: the launch hook (hooks.LaunchHook), installed here to count through the wall; ffi: the
        ctypes function pointers the harness itself calls from here on (all it keeps of ctypes: every other use
        is refused, ffi.cpp w_shut_ctypes); callers: modules whose functions make the harness's own
        guarded calls besides the data path's (the task module: its inputs from numpy); mappings: the harness's
        own mappings (transport.Writer's), the only memory the data path's torch.frombuffer may wrap; built_dir:
        the folder the worker writes the answer's built extensions to, the only one the builder's client loads
        from (the candidate cannot write it: sched.py)."""
        if policy not in POLICIES:
            raise ValueError(f"unknown wall policy {policy!r} (one of {', '.join(POLICIES)})")
        import torch
        import triton
        # the code the harness may run where only the harness may make a tensor over foreign memory: what the
        # modules loaded now define (none of the answer's, which loads after this), and this stack
        trust_modules(mod, callers)
        mod.mappings(list(mappings), torch.Tensor)
        from ..tasks import seeds
        seeds.bind_seed(mod.seed)  # a check's seed reaches torch through the wall, never through Python (seed.cpp)
        if mappings:
            from ..data import transport
            transport.bind_write(mod.write)  # the outputs copied by the wall, the mapping read-only between writes
        mod.init(fd, answer_path, [d.rstrip(os.sep) + os.sep for d in ext_dirs], policy == "kernelbench", interpreted)
        for f, mode, name in entry_points(torch):
            mod.neuter(f, mode, name)
        mod.guard_data(*data_guard(torch))
        if hook is not None:
            hook.install(mod)
        mod.shut_ctypes(list(ffi))
        # torch renames the frames of functions it decorates (no_grad, inference_mode) with code.replace, the one user
        # of code.__new__ the audit hook would otherwise refuse: a no-op here, the module held (ffi.cpp code_audit)
        from torch.utils import _contextlib
        _contextlib._set_stack_frame_name = _keep_frame_name
        for f in op_dks(torch):
            mod.route_op_dk(f)
        mod.shut_raw(code_roots(torch, triton), folders([triton_cache(triton)]), folders([built_dir]))
        # what the harness calls must stay what it was: torch's namespaces, the tensor type and the harness's
        # modules (an answer that replaces torch.randn would see the task's inputs being made)
        # and builtins, which every harness function looks its type/any/isinstance up in (checked at each harness's
        # own guarded call too: trusted.cpp answer_hook)
        import builtins
        for d in [vars(torch), vars(torch.nn.functional), vars(torch._C), vars(builtins), vars(_contextlib)]:
            mod.snapshot(d)
        # and the modules an `import` inside a harness function finds: a proxy of the answer's at
        # sys.modules["torch"] ran its __instancecheck__ in the harness's phase (redteam/wall2
        # h_r14_sysmodules_torch_harness_redispatch). Every module loaded now stays the one loaded; new ones may come
        mod.snapshot(sys.modules)
        # what triton's driver builds and loads: its knobs (build.impl, the compiler, libcuda's path) and its build
        # helpers' and drivers' globals, checked again at every native load of the driver's (ffi.cpp
        # create_dynamic_guard: a build.impl of the answer's returned its own shared object,
        # h_r15_build_impl_knob_driver_loads)
        for d in triton_state(triton):
            mod.snapshot(d, True)
        # how triton starts its compilers: always through fork_exec, whose arguments are what runs and what the wall
        # judges (ffi.cpp fork_exec_guard), never posix_spawn, whose environment is a mapping read after its audit
        # event (round 17: one that answered the event and the spawn apart); subprocess's globals and Popen's class
        # held with it
        import subprocess
        subprocess._USE_POSIX_SPAWN = False
        for d in (vars(subprocess), _type_dict(subprocess.Popen)):
            mod.snapshot(d, True)
        # pathlib's classes, whose objects' paths the wall reads (ffi.cpp readable_path)
        import pathlib
        for t in (pathlib.PurePath, pathlib.PurePosixPath, pathlib.Path, pathlib.PosixPath):
            mod.snapshot(_type_dict(t), True)
        for t in (torch.Tensor, torch._C.TensorBase, torch.nn.Module, torch._C._VariableFunctionsClass):
            mod.snapshot(_type_dict(t))
        for m in harness_modules:
            mod.snapshot(vars(m))
            # the harness's classes too (their methods, a descriptor put on one: redteam/wall2
            # h_launchhook_property_setter), and with them the code of every harness function they hold; an
            # object that is no module (libcuda's ctypes.CDLL, which answers every dunder with AttributeError)
            # defines no class of the harness's
            if not isinstance(m, types.ModuleType):
                continue
            for v in list(vars(m).values()):
                if isinstance(v, type) and v.__module__ == m.__name__:
                    mod.snapshot(_type_dict(v), True)
        # triton's kernel classes, whose run the launch hook replaced, and the wall's own functions
        from triton.runtime import jit
        kernel_classes = [jit.JITFunction]
        try:
            from triton.runtime.interpreter import InterpretedFunction
            kernel_classes.append(InterpretedFunction)
        except ImportError:
            pass
        # and torch's device context, the torch function mode the harness opens around the task's get_inputs
        # (taskref.device_inputs): the wall takes it for no hook of the answer's, so its methods must stay torch's
        from torch.utils._device import DeviceContext
        for t in kernel_classes + [DeviceContext]:
            mod.snapshot(_type_dict(t), True)
        # triton's print, a refusal since before the answer loaded (hooks._refuse_device_prints): the interpreter's
        # builder's create_print and its module's name `print` (which its static_print is) must stay so; an answer
        # that gave the interpreter its print back would print a tile's values (redteam/wall2 h_r47_static_print_leak)
        if len(kernel_classes) > 1:
            from triton.runtime import interpreter
            mod.snapshot(vars(interpreter))
            mod.snapshot(_type_dict(interpreter.InterpreterBuilder), True)
        mod.snapshot(vars(mod))
        w = cls(mod, policy)
        w.ext_dirs = [d.rstrip(os.sep) + os.sep for d in ext_dirs]
        mod.phase(HARNESS)
        return w

    def extensions(self):
        """The answer's extension modules: loaded from one of its extension folders (by import, or by the
        builder's client, which tells the wall)."""
        out = list(self.loaded)
        for name, m in list(sys.modules.items()):
            f = getattr(m, "__file__", None) if m is not None else None
            if isinstance(f, str) and f.endswith(".so") and any(f.startswith(d) for d in self.ext_dirs):
                out.append(m)
        return out

    def on_loaded(self, m):
        """The builder's client loaded m: its functions and its classes' methods are routed now, before the
        answer holds the module (a function or class the answer later renames or deletes from it is routed
        all the same)."""
        self.loaded.append(m)
        self.seen[0] = 0
        self.wrap_extensions()

    def wrap_extensions(self):
        """Routes every function of the answer's extensions through the wall (the ablation probe); in place
        in their method definitions, so every alias the answer kept goes through it too. Looked for again
        when a module was imported since the last window."""
        n = len(sys.modules) + len(self.loaded)
        if n == self.seen[0]:
            return
        self.seen[0] = n
        for m in self.extensions():
            for v in _extension_functions(m):
                if id(v) not in self.wrapped:
                    if not self.mod.wrap_extension(v):
                        # its calling convention is not one the wall routes, or the slots ran out: an
                        # extension function the ablation probe would not see is not called at all
                        raise RuntimeError(f"the runtime wall cannot route the extension function "
                                           f"{getattr(v, '__qualname__', getattr(v, '__name__', '?'))} of {m.__name__}")
                    self.wrapped.add(id(v))

    def hold(self, *objs):
        """The harness's own objects (the child, its writer, launch hook and tools, this wall): their attributes
        must stay what they are now (no key added, none replaced), checked at every transition and guarded call,
        so that no method or callable the harness looks up on them is the answer's (a Child's `reseed` shadowed by
        C callables ran the answer's compute as the harness's: redteam/wall2 h_r7_gadget_redraw_after_seed). What
        changes in them is kept in holders (lists, dicts) made before."""
        for o in objs:
            self.mod.snapshot(vars(o), True)

    def hold_modules(self, modules, task=None, shape_keys=()):
        """Modules whose functions the harness calls while it makes a call's inputs (inputsets, the device context's,
        os for its reseed, ...): their names must stay what they are (checked at every transition and guarded call).
        The task module's too, but for the names its shapes set (taskref.apply_shape): a get_inputs replaced by C
        callables ran the softmax of the inputs it had just made, as the harness's (redteam/wall2
        h_r8_task_get_inputs_gadget)."""
        for m in modules:
            self.mod.snapshot(vars(m))
        if task is not None:
            self.mod.snapshot(vars(task), False, frozenset(shape_keys) | {"__sieve_shape_orig__"})

    def inputs_made(self):
        """The call's inputs exist: until its outputs are written, compute in the harness's phase is the answer's."""
        self.mod.inputs(True)

    def inputs_gone(self):
        """A call begins, or what the inputs were made for ended without a write (the share, a probe that failed):
        the harness may compute again (its reference models)."""
        self.mod.inputs(False)

    def forward(self, fn):
        """fn() inside an armed window; the report is written when it closes, error or not. Whether the window
        is the probe was told to the wall before (LaunchHook.arm), and is not known here."""
        self.wrap_extensions()
        self.mod.phase(FORWARD)
        try:
            return fn()
        finally:
            self.mod.phase(HARNESS)

    def free(self):
        """The answer's own construction (module import, ModelNew(...), load_state_dict): not judged."""
        self.mod.phase(FREE)

    def harness(self):
        self.mod.phase(HARNESS)

    def seal(self):
        self.mod.seal()


def _extension_functions(m):
    """The C functions an extension module defines: its module-level functions, and those of the classes it
    defines (pybind11 keeps a method in the class's dict as an instancemethod, a def_static as a staticmethod,
    a property's getter and setter in the property: each wraps a builtin function whose method definition is
    the extension's), also in submodules and nested classes; base classes that are not the module's own
    (pybind11's pybind11_object) are not looked into. pybind11's own `_pybind11_conduit_v1_` is routed too."""
    out, seen = [], set()

    def fn(v, depth=0):
        if type(v).__name__ == "builtin_function_or_method" and id(v) not in seen:
            seen.add(id(v))
            out.append(v)
        elif type(v).__name__ in ("instancemethod", "staticmethod", "classmethod", "property") and depth < 2:
            for attr in ("__func__", "fget", "fset", "fdel"):  # a property's getter is an instancemethod
                fn(getattr(v, attr, None), depth + 1)

    def walk(ns, owner):
        for v in list(ns.values()):
            fn(v)
            if isinstance(v, type) and id(v) not in seen and str(getattr(v, "__module__", "")).split(".")[0] == owner:
                seen.add(id(v))
                walk(_type_dict(v), owner)
            elif type(v).__name__ == "module" and id(v) not in seen and v.__name__.startswith(owner + "."):
                seen.add(id(v))
                walk(vars(v), owner)
    walk(vars(m), m.__name__.split(".")[0])
    return out


def _type_dict(t):
    """The real dict of a type (vars() gives a read-only proxy of it)."""
    import gc
    for r in gc.get_referents(t.__dict__):
        if isinstance(r, dict):
            return r
    return {}


# ---- the worker's side -------------------------------------------------------------------------------------

MASK64 = (1 << 64) - 1


def _mix(z):
    """splitmix64's finaliser, as seed.cpp mix."""
    z = (z + 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def seal_seed(key, secret):
    """A check's secret seed as the worker sends it to a candidate whose wall told its key (seed.cpp key_report):
    {"n": a fresh nonce, "w": the seed masked with mix(key ^ mix(nonce))}. The child hands both to the wall, which seeds
    torch (seeds.seed_torch); the seed itself is in none of the child's Python objects. Seeds are below 2**64
    (seeds.secret_seed)."""
    nonce = int.from_bytes(os.urandom(8), "little")
    return {"n": nonce, "w": (int(secret) & MASK64) ^ _mix(key ^ _mix(nonce))}


PROCESS_START = "starting a process "  # how ffi.cpp's refusals of a process start begin


def key_of(msg):
    """The key of the wall's first line ({"t": "wall", "kind": "key", "key": n}), or None where it is no such line."""
    k = msg.get("key") if isinstance(msg, dict) and msg.get("kind") == "key" else None
    return k if type(k) is int and 0 <= k <= MASK64 else None


def check_report(msg, expected_serial):
    """(fatal, code, message) for one window report: ("FAIL_SANDBOX", ...) for tampering, ("FAIL_SHAM", ...) for
    an op the policy refuses, None when clean."""
    if not isinstance(msg, dict) or msg.get("kind") not in ("window", "seal"):
        return ("FAIL_SANDBOX", "WALL_TAMPERED", "a garbled runtime wall report")
    if msg.get("tampered"):
        return ("FAIL_SANDBOX", "WALL_TAMPERED", f"the runtime wall was tampered with: {str(msg['tampered'])[:300]}")
    if msg.get("native"):
        native = str(msg["native"])
        if native.startswith(PROCESS_START):  # ffi.cpp spawn_audit, fork_exec_guard: the sandbox's own reason
            return ("FAIL_SANDBOX", "SUBPROCESS", f"the answer tried to start a process: {native[:300]}")
        return ("FAIL_SANDBOX", "RAW_MEMORY_ACCESS", f"the answer reached for raw memory or a foreign call: {native[:300]}")
    if msg["kind"] == "window" and msg.get("serial") != expected_serial:
        return ("FAIL_SANDBOX", "WALL_TAMPERED",
                f"runtime wall report {str(msg.get('serial'))[:20]} where {expected_serial} was due (a window "
                "armed or closed by the answer)")
    n = msg.get("violations")
    if not isinstance(n, int) or n < 0:
        return ("FAIL_SANDBOX", "WALL_TAMPERED", "a garbled runtime wall report")
    if n:
        first = (msg.get("first") or [{}])[0]
        if not isinstance(first, dict):
            first = {}
        where = str(first.get("where", "?"))[:200]
        thread = " on a thread of the answer's" if first.get("other_thread") else ""
        op = str(first.get("op", "?"))
        # an op's name (aten::softmax) or, from the interpreter's watch and gate, a sentence saying what ran
        what = ("torch did work the answer's kernels should do" if " " not in op.strip() else
                "the runtime wall refused it")
        return ("FAIL_SHAM", "TORCH_OP_AT_RUNTIME",
                f"{op[:240]} ran {str(first.get('phase', 'in the forward'))[:40]}{thread} "
                f"({where}): {what} ({n} such op{'s' if n > 1 else ''})")
    if msg.get("native_harness"):
        # refused with no frame of the answer's on the stack: torch or triton itself used ctypes, the
        # harness's fault (worker.on_wall retries the job), never the sample's verdict. Read after the answer's
        # own evidence in the same report: a refusal the answer provoked under a fresh file name must not turn
        # its op into a retry (redteam/wall2 h_harness_refusal_masks_sham)
        return ("HARNESS", "RAW_MEMORY_HARNESS",
                f"torch or triton reached for a primitive the wall refuses (no frame of the answer's on the "
                f"stack): {str(msg['native_harness'])[:300]}")
    return None


# ---- kernel accounting: the answer's own kernels, by exact name -------------------------------------------

def elf_function_symbols(path):
    """Names of the function symbols an ELF shared object defines (.symtab and .dynsym), read directly."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        return set()
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    secs = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    names = set()
    for s in secs:
        if s[1] not in (2, 11):  # SHT_SYMTAB, SHT_DYNSYM
            continue
        strtab = secs[s[6]]
        for off in range(s[4], s[4] + s[5], 24):
            st_name, st_info, _, st_shndx = struct.unpack_from("<IBBH", data, off)
            if st_info & 0xF != 2 or st_shndx == 0:  # STT_FUNC, defined here
                continue
            a = strtab[4] + st_name
            names.add(data[a:data.index(b"\0", a)].decode("utf-8", "replace"))
    return names


def kernel_names(paths, demangle):
    """Exact names the profiler can show for the answer's kernels: each function symbol of its built objects,
    as written and demangled. A kernel of ATen or a library counts only if the answer's object defines it."""
    out = set()
    for p in paths:
        try:
            syms = elf_function_symbols(p)
        except (OSError, struct.error, ValueError):
            continue
        for s in syms:
            out.add(s)
            out.add(demangle(s))
    return out


def mapped_objects(dirs):
    """The shared objects mapped into this process from one of dirs (its /proc/self/maps)."""
    found = set()
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                parts = line.split(None, 5)
                if len(parts) == 6:
                    p = parts[5].strip()
                    if p.endswith(".so") and any(p.startswith(d) for d in dirs):
                        found.add(p)
    except OSError:
        pass
    return sorted(found)
