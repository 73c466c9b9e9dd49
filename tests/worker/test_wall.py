"""The runtime wall (sieve_worker/candidate/wall.py, gpu/worker/wall/sieve_wall.cpp): what it sees, what it names, what it
refuses, and that it reports exactly once per window. Builds the wall (and a small C++ extension standing for an
answer's) with the real compiler; the build is cached in SIEVE_WALL_CACHE (default ~/.cache/sieve/wall).

    cd gpu/worker && python -m unittest discover -s ../../tests/worker -p 'test_wall.py'
"""
import concurrent.futures
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import sysconfig
import tempfile
import textwrap
import threading
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
WORKER = os.path.join(os.path.dirname(os.path.dirname(HERE)), "gpu", "worker")
sys.path.insert(0, WORKER)

from sieve_worker.candidate import wall  # noqa: E402

# WallInProcess starts a wall in this process, and then no process starts here but from triton's own code (ffi.cpp
# spawn_audit): the other tests run their children through a fork server started now, before it
_SPAWNER = concurrent.futures.ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("forkserver"))
_SPAWNER.submit(int).result()


def run_python(script, timeout=300):
    """sys.executable -c script, its output captured, started by the fork server"""
    return _SPAWNER.submit(subprocess.run, [sys.executable, "-c", script], capture_output=True, text=True,
                           timeout=timeout).result()


def run_child(cmd):
    """a command that must succeed, started by the fork server"""
    return _SPAWNER.submit(subprocess.run, cmd, check=True, capture_output=True).result()


CACHE = wall.cache_dir()

# an answer's extension, reduced to what the wall must see: ATen called from C++ (through the dispatcher)
EXT_SRC = r"""
#include <ATen/ops/ones.h>
#include <ATen/ops/relu.h>
#include <Python.h>
extern "C" __attribute__((noinline)) void sieve_test_relu_from_cpp() { auto t = at::relu(at::ones({4})); }
static PyObject* run(PyObject*, PyObject* args, PyObject*) {
  sieve_test_relu_from_cpp();
  Py_INCREF(args);
  return args;
}
static PyObject* quiet(PyObject*, PyObject* args, PyObject*) {
  Py_INCREF(args);
  return args;
}
// the other calling conventions an extension function can have (pybind11 3 binds with FASTCALL | KEYWORDS);
// each returns what it was given, as a tuple (and a dict of keywords where it takes them)
static PyObject* fast_kw(PyObject*, PyObject* const* args, Py_ssize_t n, PyObject* names) {
  PyObject* t = PyTuple_New(n);
  for (Py_ssize_t i = 0; i < n; ++i) { Py_INCREF(args[i]); PyTuple_SET_ITEM(t, i, args[i]); }
  PyObject* kw = PyDict_New();
  for (Py_ssize_t i = 0; names && i < PyTuple_GET_SIZE(names); ++i)
    PyDict_SetItem(kw, PyTuple_GET_ITEM(names, i), args[n + i]);
  PyObject* r = PyTuple_Pack(2, t, kw);
  Py_DECREF(t);
  Py_DECREF(kw);
  return r;
}
static PyObject* fast(PyObject*, PyObject* const* args, Py_ssize_t n) {
  PyObject* t = PyTuple_New(n);
  for (Py_ssize_t i = 0; i < n; ++i) { Py_INCREF(args[i]); PyTuple_SET_ITEM(t, i, args[i]); }
  return t;
}
static PyObject* one(PyObject*, PyObject* a) { return PyTuple_Pack(1, a); }
static PyObject* none(PyObject*, PyObject*) { return PyTuple_New(0); }
static PyObject* plain(PyObject*, PyObject* args) { Py_INCREF(args); return args; }
static PyMethodDef methods[] = {
    {"run", (PyCFunction)(void (*)())run, METH_VARARGS | METH_KEYWORDS, nullptr},
    {"quiet", (PyCFunction)(void (*)())quiet, METH_VARARGS | METH_KEYWORDS, nullptr},
    {"fast_kw", (PyCFunction)(void (*)())fast_kw, METH_FASTCALL | METH_KEYWORDS, nullptr},
    {"fast", (PyCFunction)(void (*)())fast, METH_FASTCALL, nullptr},
    {"one", one, METH_O, nullptr},
    {"none", none, METH_NOARGS, nullptr},
    {"plain", plain, METH_VARARGS, nullptr},
    {nullptr, nullptr, 0, nullptr}};
// multi-phase initialisation, as pybind11 3 (torch 2.11's) makes it: the import machinery, unlike a
// single-phase module's, does not put the module in sys.modules when a loader execs it by path
static PyModuleDef_Slot slots[] = {{0, nullptr}};
static PyModuleDef mod = {PyModuleDef_HEAD_INIT, "sieve_test_ext", nullptr, 0, methods, slots};
PyMODINIT_FUNC PyInit_sieve_test_ext() { return PyModuleDef_Init(&mod); }
"""


def build_test_ext(out_dir):
    import torch
    tdir = os.path.dirname(torch.__file__)
    import hashlib
    path = os.path.join(out_dir, f"sieve_test_ext_{hashlib.sha256(EXT_SRC.encode()).hexdigest()[:12]}",
                        "sieve_test_ext.so")
    out_dir = os.path.dirname(path)
    os.makedirs(out_dir, exist_ok=True)
    if os.path.exists(path):
        return path
    src = os.path.join(out_dir, "ext.cpp")
    with open(src, "w") as f:
        f.write(EXT_SRC)
    run_child(["g++", "-O1", "-shared", "-fPIC", "-std=c++20",
                    f"-D_GLIBCXX_USE_CXX11_ABI={int(torch._C._GLIBCXX_USE_CXX11_ABI)}",
                    "-I", os.path.join(tdir, "include"), "-I", sysconfig.get_paths()["include"], src,
                    "-L", os.path.join(tdir, "lib"), "-ltorch_cpu", "-lc10", f"-Wl,-rpath,{os.path.join(tdir, 'lib')}",
                    "-o", path])
    return path


# an answer's pybind11 class (py::class_), as load_inline builds one: a method, a static method, a property
CLS_SRC = r"""
#include <pybind11/pybind11.h>
namespace py = pybind11;
struct Acc {
  int k = 3;
  py::tuple run(py::args a) { return py::tuple(a); }
  static py::tuple make(py::args a) { return py::tuple(a); }
};
PYBIND11_MODULE(sieve_test_cls, m) {
  py::class_<Acc>(m, "Acc").def(py::init<>()).def("run", &Acc::run).def_static("make", &Acc::make)
      .def_readwrite("k", &Acc::k);
}
"""


def build_test_cls(out_dir):
    import torch
    import hashlib
    path = os.path.join(out_dir, f"sieve_test_cls_{hashlib.sha256(CLS_SRC.encode()).hexdigest()[:12]}",
                        "sieve_test_cls.so")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if not os.path.exists(path):
        src = os.path.join(os.path.dirname(path), "cls.cpp")
        with open(src, "w") as f:
            f.write(CLS_SRC)
        run_child(["g++", "-O1", "-shared", "-fPIC", "-std=c++17", "-fvisibility=hidden",
                   "-I", os.path.join(os.path.dirname(torch.__file__), "include"),
                   "-I", sysconfig.get_paths()["include"], src, "-o", path + ".tmp"])
        os.replace(path + ".tmp", path)
    return path


class Reports:
    """The read end of the pipe the wall reports on."""

    def __init__(self):
        self.r, self.w = os.pipe()
        os.set_blocking(self.r, False)
        self.buf = b""

    def take(self):
        try:
            while True:
                data = os.read(self.r, 1 << 16)
                if not data:
                    break
                self.buf += data
        except BlockingIOError:
            pass
        lines, self.buf = self.buf.split(b"\n"), b""
        self.buf = lines.pop()
        # the seeds' key and the end of each free phase (seed.cpp, w_phase): test_seed_*
        return [r for r in (json.loads(x) for x in lines if x) if r.get("kind") not in ("key", "built")]


class WallInProcess(unittest.TestCase):
    """One wall for the class (a process registers it once); each test reads its own windows' reports."""

    @classmethod
    def setUpClass(cls):
        import torch
        cls.torch = torch
        cls.tmp = tempfile.mkdtemp(prefix="sieve-wall-test-")
        cls.ext_dir = os.path.join(CACHE, "test-ext")
        os.makedirs(cls.ext_dir, exist_ok=True)
        cls.ext_path = ext_path = build_test_ext(cls.ext_dir)
        cls.answer = os.path.join(cls.tmp, "answer.py")
        cls.reports = Reports()
        cls.mod = wall.load(wall.build(CACHE)[0])
        # the answer's extension, loaded before the wall (after it, only triton's driver and the builder's client load
        # native modules: ffi.cpp create_dynamic_guard)
        import importlib.machinery
        import importlib.util
        loader = importlib.machinery.ExtensionFileLoader("sieve_test_ext", ext_path)
        spec = importlib.util.spec_from_file_location("sieve_test_ext", ext_path, loader=loader)
        cls.ext = importlib.util.module_from_spec(spec)
        loader.exec_module(cls.ext)
        sys.modules["sieve_test_ext"] = cls.ext
        path = build_test_cls(cls.ext_dir)
        loader = importlib.machinery.ExtensionFileLoader("sieve_test_cls", path)
        cls.cls_mod = importlib.util.module_from_spec(importlib.util.spec_from_file_location("sieve_test_cls", path,
                                                                                             loader=loader))
        loader.exec_module(cls.cls_mod)
        # this module plays the harness: its functions make the harness's own calls (Tensor.numpy outside windows)
        cls.w = wall.Wall.start(cls.mod, cls.reports.w, cls.answer, [cls.ext_dir], "strict", True, [wall],
                                callers=[sys.modules[__name__]])
        cls.poisoned = []

        cls.poisoned_kw = []

        def poisoner(args, kw, res, value, protect):
            cls.poisoned.append(args)
            cls.poisoned_kw.append(kw)
            return "poisoned"
        cls.mod.set_poisoner(poisoner)
        cls.serial = 0

    def answer_code(self, src):
        """Functions compiled as if from the answer's file (the wall names the answer's lines by file)."""
        ns = {"torch": self.torch, "threading": threading}
        exec(compile(textwrap.dedent(src), self.answer, "exec"), ns)
        return ns

    def window(self, fn, ablate=False):
        # the probe is armed in the wall before its window (LaunchHook.arm), and asked for after it
        self.mod.arm(1234.5 if ablate else None, True)
        try:
            out = self.w.forward(fn)
        finally:
            type(self).serial += 1
            self.assertEqual(self.mod.probed(), ablate)
        reps = self.reports.take()
        self.assertEqual(len(reps), 1, reps)
        self.assertEqual(reps[0]["serial"], self.serial)
        self.assertEqual(reps[0]["tampered"], "")
        return out, reps[0]

    def test_allocation_views_copies_pass(self):
        x = self.torch.randn(4, 6)
        ns = self.answer_code("""
            def fwd(x):
                y = torch.empty_like(x)
                y.copy_(x)
                z = y.view(6, 4).t().contiguous().reshape(-1)[1:5].unsqueeze(0).expand(2, 4)
                w = x.new_zeros(3).fill_(1.0)
                return z, w.clone()
        """)
        _, rep = self.window(lambda: ns["fwd"](x))
        self.assertEqual(rep["violations"], 0, rep)
        self.assertGreater(rep["ops"], 5)
        self.assertIsNone(wall.check_report(rep, rep["serial"]))

    def test_compute_named_with_the_answers_line(self):
        x = self.torch.randn(8)
        ns = self.answer_code("""
            def fwd(x):
                y = x.clone()
                return torch.relu(y)
        """)
        _, rep = self.window(lambda: ns["fwd"](x))
        self.assertGreaterEqual(rep["violations"], 1)
        self.assertEqual(rep["first"][0]["op"], "aten::relu")
        self.assertEqual(rep["first"][0]["where"], "line 4")
        bad = wall.check_report(rep, rep["serial"])
        self.assertEqual(bad[:2], ("FAIL_SHAM", "TORCH_OP_AT_RUNTIME"))
        self.assertIn("aten::relu", bad[2])

    def test_op_from_cpp_named_by_symbol(self):
        ns = self.answer_code("""
            import sieve_test_ext
            def fwd():
                return sieve_test_ext.run()
        """)
        _, rep = self.window(ns["fwd"])
        first = rep["first"][0]
        self.assertEqual(first["op"], "aten::relu")
        # the op came from the answer's extension, called from the answer's line: the line is the first name
        self.assertEqual(first["where"], "line 4")
        _, rep = self.window(self.ext.run)  # no line of the answer's on the stack: the C++ symbol names it
        self.assertIn("sieve_test_relu_from_cpp", rep["first"][0]["where"])

    def test_other_thread_in_the_window(self):
        x = self.torch.randn(8)
        t = threading.Thread(target=lambda: self.torch.sigmoid(x))
        _, rep = self.window(lambda: (t.start(), t.join()))
        self.assertTrue(any(v["op"] == "aten::sigmoid" and v["other_thread"] for v in rep["first"]), rep)

    def test_numpy_and_tolist_refused_in_the_forward_only(self):
        x = self.torch.randn(4)
        self.assertEqual(len(x.numpy()), 4)  # the harness's phase: allowed
        err, rep = self.window(lambda: self.try_call(lambda: x.numpy()))
        self.assertIsInstance(err, RuntimeError)
        self.assertIn("numpy", rep["first"][0]["op"])
        _, rep = self.window(lambda: self.try_call(lambda: x.tolist()))
        self.assertIn("tolist", rep["first"][0]["op"])

    @staticmethod
    def try_call(f):
        try:
            return f()
        except RuntimeError as e:
            return e

    def test_redispatch_refused_in_the_forward(self):
        x = self.torch.randn(4)
        ks = self.torch._C.DispatchKeySet(self.torch._C.DispatchKey.CPU)
        call = lambda: self.torch.ops.aten.relu.default.redispatch(ks, x)  # noqa: E731
        _, rep = self.window(lambda: self.try_call(call))
        self.assertEqual(rep["bypass"], 1)
        self.assertIn("redispatch_boxed", rep["first"][0]["op"])
        # and an OpOverload's _op_dk, which calls a kernel for a dispatch key with no RecordFunction (redteam/wall2
        # h_r14_op_dk_softmax), made before the wall or after it
        for op in (self.torch.ops.aten.relu.default, self.torch.ops.aten.special_erfcx.default):
            _, rep = self.window(lambda: self.try_call(lambda: op._op_dk(self.torch._C.DispatchKey.CPU, x)))
            self.assertEqual(rep["bypass"], 1)
            self.assertIn("_op_dk", rep["first"][0]["op"])
        # outside a window, in the harness's phase, code that is not the harness's is refused too: the answer's
        # __instancecheck__, reached from a harness function, computed there (h_r14_sysmodules_torch_harness_...)
        ns = self.answer_code("""
            def outside(op, ks, x):
                return op.redispatch(ks, x)
        """)
        with self.assertRaisesRegex(PermissionError, "outside the harness's own code"):
            ns["outside"](self.torch.ops.aten.relu.default, ks, x)

    def test_harness_phase_judges_only_answer_frames(self):
        x = self.torch.randn(4)
        self.torch.tanh(x)  # the harness's own compute: not the answer's
        ns = self.answer_code("""
            def later(x):
                return torch.tanh(x)
        """)
        ns["later"](x)  # answer code run by the harness outside a window (a __del__, a patched function)
        _, rep = self.window(lambda: None)
        self.assertEqual(rep["violations"], 1, rep)
        self.assertEqual(rep["first"][0]["phase"], "outside the forward")

    def test_ablation_runs_the_extension_then_the_poisoner(self):
        self.w.modules_seen = 0  # the extension module was imported by this test class: look again
        before = len(self.poisoned)
        out, rep = self.window(lambda: self.ext.quiet(7), ablate=True)
        self.assertEqual(out, "poisoned")
        self.assertEqual(len(self.poisoned), before + 1)
        out, rep = self.window(lambda: self.ext.quiet(7))
        self.assertEqual(out, (7,))

    def test_ablation_sees_every_calling_convention(self):
        # pybind11 3 (torch 2.11's) binds with METH_FASTCALL | METH_KEYWORDS: a wall that routed only
        # METH_VARARGS | METH_KEYWORDS left every load_inline function unseen by the probe
        self.w.modules_seen = 0
        x = self.torch.ones(2)
        calls = [(lambda: self.ext.fast_kw(x, 3, k=5), ((x, 3), {"k": 5})), (lambda: self.ext.fast(x, 3), ((x, 3), None)),
                 (lambda: self.ext.one(x), ((x,), None)), (lambda: self.ext.none(), ((), None)),
                 (lambda: self.ext.plain(x, 3), ((x, 3), None))]
        for fn, (args, kw) in calls:
            plain_out, _ = self.window(fn)
            before = len(self.poisoned)
            out, _ = self.window(fn, ablate=True)
            self.assertEqual(out, "poisoned")
            self.assertEqual(len(self.poisoned), before + 1)
            self.assertEqual(len(self.poisoned[-1]), len(args))
            self.assertTrue(all(a is b for a, b in zip(self.poisoned[-1], args)))
            self.assertEqual(self.poisoned_kw[-1], kw)
            self.assertEqual(self.window(fn)[0].__class__, plain_out.__class__)  # unchanged outside the probe

    def test_ablation_sees_the_methods_of_the_extensions_classes(self):
        # pybind11 keeps a class's methods in its dict (instancemethod, staticmethod, property), not in the
        # module's: the wall routed only module-level functions, so a py::class_ method was never poisoned
        cls_mod = self.cls_mod  # loaded before the wall (setUpClass)
        self.w.on_loaded(cls_mod)  # as the builder's client tells it, before the answer holds the module
        Acc = cls_mod.Acc
        del cls_mod.Acc  # routed at load: what the answer renames or deletes afterwards stays routed
        acc = Acc()
        for fn, args in [(lambda: acc.run(1, 2), (acc, 1, 2)), (lambda: Acc.make(4), (4,)), (lambda: acc.k, (acc,))]:
            plain, _ = self.window(fn)
            before = len(self.poisoned)
            out, _ = self.window(fn, ablate=True)
            self.assertEqual(out, "poisoned")
            self.assertEqual(len(self.poisoned), before + 1)
            self.assertEqual(self.poisoned[-1][-len(args):], args)
            self.assertEqual(self.window(fn)[0], plain)

    def test_kernel_names_are_exact(self):
        names = wall.kernel_names([self.ext_path], self.mod.demangle)
        self.assertIn("sieve_test_relu_from_cpp", names)
        self.assertNotIn("relu", names)  # a name that merely contains one of them is not one of them
        self.assertFalse(any("reduce_kernel" in n for n in names))


class WallBuild(unittest.TestCase):
    def test_a_part_that_does_not_compile_fails_the_build_and_leaves_nothing(self):
        """Each part is compiled on its own, all at once: one that fails names its error, and neither the other
        parts' objects nor a half-linked file stay in the cache (a later build starts clean)."""
        tmp = tempfile.mkdtemp(prefix="sieve-wall-build-")
        good, bad = os.path.join(tmp, "good.cpp"), os.path.join(tmp, "bad.cpp")
        with open(good, "w") as f:
            f.write("int sieve_good() { return 1; }\n")
        with open(bad, "w") as f:
            f.write("int sieve_bad( { return; }\n")
        saved = wall.SOURCES, wall.HEADERS
        wall.SOURCES, wall.HEADERS = [bad, good], []
        try:
            with self.assertRaisesRegex(RuntimeError, "building the runtime wall failed: .*bad.cpp"):
                wall.build(os.path.join(tmp, "cache"))
            wall.SOURCES = [good]
            path, took = wall.build(os.path.join(tmp, "cache"))
        finally:
            wall.SOURCES, wall.HEADERS = saved
        self.assertTrue(os.path.exists(path) and took > 0)
        self.assertEqual(os.listdir(os.path.dirname(path)), [os.path.basename(path)])


class WallJitSource(unittest.TestCase):
    """On the GPU a Triton kernel is a JITFunction, which compiles its src, not its fn: a kernel object of another
    file whose fn was swapped for a function of the answer's ran that file's code as the answer's kernel (redteam/wall2
    h_r38_kernel_fn_swapped_torch_kernel). Launched here without the interpreter (triton's run then fails with no
    GPU, after the wall has judged the launch): the answer's kernels, module-level and nested, count; the swapped
    one is refused."""

    SCRIPT = r'''
import json, os, sys, tempfile
sys.path.insert(0, WORKER)
os.environ.pop("TRITON_INTERPRET", None)
import torch
import triton
from sieve_worker.candidate import wall, hooks
d = tempfile.mkdtemp()
ans, other = os.path.join(d, "answer.py"), os.path.join(d, "other.py")
K = "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef {n}(x_ptr):\n    tl.store(x_ptr, {v})\n"
open(ans, "w").write(K.format(n="mine", v="1.0") + K.format(n="mine2", v="4.0").split("as tl\n")[1]
                     + "\n\ndef empty(x_ptr):\n    pass\n\n\ndef outer():\n"
                     "    @triton.jit\n    def nested(x_ptr):\n        tl.store(x_ptr, 3.0)\n    return nested\n")
open(other, "w").write(K.format(n="theirs", v="2.0"))
r, w = os.pipe()
mod = wall.load(wall.build(wall.cache_dir())[0])
hook = hooks.LaunchHook(ans)
W = wall.Wall.start(mod, w, ans, [], "strict", False, [wall, hooks], hook, callers=[sys.modules[__name__]])
W.free()
import importlib.util
def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); return m
A = load(ans, "answer_mod"); O = load(other, "other_mod")
nested = A.outer()
swapped = O.theirs
object.__setattr__(swapped, "fn", A.empty)
nosrc = A.mine2
del nosrc.__dict__["_src"]  # read through the class as triton reads it: none, so not the answer's
W.harness()
x = torch.zeros(1)
out = {}
for name, k in (("mine", A.mine), ("nested", nested), ("swapped", swapped), ("nosrc", nosrc)):
    mod.arm(None, True)
    before = hook.counts()[0]
    try:
        W.forward(lambda: k[(1,)](x))
    except BaseException as e:
        out[name + "_err"] = type(e).__name__
    mod.probed()
    out[name] = hook.counts()[0] - before
# a class attribute of triton's changed after the wall started (a `_src` property that answers another kernel's text)
type(A.mine)._src = property(lambda self: O.theirs.__dict__["_src"])
mod.arm(None, True)
try:
    W.forward(lambda: A.mine[(1,)](x))
except BaseException:
    pass
mod.probed()
W.seal(); os.close(w)
data = b""
while True:
    b = os.read(r, 65536)
    if not b: break
    data += b
reps = [json.loads(x) for x in data.decode().splitlines() if x.startswith("{")]
out["violations"] = [(rep.get("violations"), [f.get("op") for f in rep.get("first", [])])
                     for rep in reps if "violations" in rep]
out["tampered"] = [rep.get("tampered") for rep in reps if rep.get("tampered")]
print(json.dumps(out))
'''

    def test_a_kernel_counts_only_when_its_src_is_the_answers(self):
        res = run_python(f"WORKER = {WORKER!r}\n" + self.SCRIPT)
        self.assertEqual(res.returncode, 0, res.stderr[-2000:])
        out = json.loads(res.stdout.strip().splitlines()[-1])
        self.assertEqual((out["mine"], out["nested"], out["swapped"], out["nosrc"]), (1, 1, 0, 0), out)
        refused = [ops for n, ops in out["violations"] if n]
        self.assertEqual(len(refused), 3, out)  # the swapped one, the one without src, and the last (below)
        self.assertIn("a Triton kernel not defined in the answer's file", refused[0][0])
        self.assertTrue(out["tampered"], out)  # the class changed: latched


class WallJitCallees(unittest.TestCase):
    """What the answer's kernel calls, on the GPU path (callees.cpp): every function triton compiles goes through a
    CodeGenerator, whose __init__ the wall routes through callee(0, jit_fn). Compiled here for an sm_80 target with
    no GPU (triton.compile: code generator, ptxas): the answer's kernel calling its own device function and triton's
    tl.softmax and tl.sum compiles; one calling a @triton.jit function of another file, directly or through an
    attribute put on triton.language, is refused with the callee named, whatever reached it; a launch with an
    argument of a class of the answer's is refused before triton runs; and the code generator's hook taken out is
    tampering."""

    SCRIPT = r'''
import json, os, sys, tempfile
sys.path.insert(0, WORKER)
os.environ.pop("TRITON_INTERPRET", None)
import torch
import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource
from sieve_worker.candidate import wall, hooks
d = tempfile.mkdtemp()
ans, other = os.path.join(d, "answer.py"), os.path.join(d, "other.py")
open(other, "w").write("import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef theirs(x_ptr):\n"
                       "    tl.store(x_ptr, 2.0)\n")
open(ans, "w").write("""import triton
import triton.language as tl
from other import theirs as THEIRS


class Arg:
    pass


@triton.jit
def helper(v):
    return tl.softmax(v[None, :], dim=1)


@triton.jit
def good(x_ptr):
    o = tl.arange(0, 16)
    p = tl.reshape(helper(tl.load(x_ptr + o)), (16,))
    tl.store(x_ptr + o, p / tl.sum(p, axis=0))


@triton.jit
def direct(x_ptr):
    THEIRS(x_ptr)


@triton.jit
def via_tl(x_ptr):
    tl.theirs_too(x_ptr)
""")
sys.path.insert(0, d)
r, w = os.pipe()
mod = wall.load(wall.build(wall.cache_dir())[0])
hook = hooks.LaunchHook(ans)
W = wall.Wall.start(mod, w, ans, [], "strict", False, [wall, hooks], hook, callers=[sys.modules[__name__]])
W.free()
import importlib.util
spec = importlib.util.spec_from_file_location("answer_mod", ans)
A = importlib.util.module_from_spec(spec); spec.loader.exec_module(A)
import triton.language as tl
tl.theirs_too = A.THEIRS
W.harness()
out = {}
def compile_(k):
    return triton.compile(ASTSource(fn=k, signature={"x_ptr": "*fp32"}, constexprs={}),
                          target=GPUTarget("cuda", 80, 32))
steps = [("good", lambda: compile_(A.good)), ("direct", lambda: compile_(A.direct)),
         ("via_tl", lambda: compile_(A.via_tl)), ("arg", lambda: A.good[(1,)](A.Arg()))]
for name, step in steps:
    mod.arm(None, True)
    try:
        W.forward(step)
        out[name] = "ok"
    except BaseException as e:
        out[name] = repr(e)[:400]
    mod.probed()
# the code generator's hook taken out after the wall started: tampering at the next launch
from triton.compiler.code_generator import CodeGenerator
CodeGenerator.__init__ = CodeGenerator.__init__.__closure__[1].cell_contents
mod.arm(None, True)
try:
    W.forward(lambda: A.good[(1,)](torch.zeros(16)))
except BaseException:
    pass
mod.probed()
W.seal(); os.close(w)
data = b""
while True:
    b = os.read(r, 65536)
    if not b: break
    data += b
reps = [json.loads(x) for x in data.decode().splitlines() if x.startswith("{")]
out["violations"] = [[f.get("op") for f in rep.get("first", [])] for rep in reps if rep.get("violations")]
out["tampered"] = [rep.get("tampered") for rep in reps if rep.get("tampered")]
print(json.dumps(out))
'''

    def test_callees_must_be_the_answers_or_tritons(self):
        res = run_python(f"WORKER = {WORKER!r}\n" + self.SCRIPT)
        self.assertEqual(res.returncode, 0, res.stderr[-2000:])
        out = json.loads(res.stdout.strip().splitlines()[-1])
        self.assertEqual(out["good"], "ok", out)
        for name in ("direct", "via_tl"):
            self.assertIn("theirs from", out[name], (name, out))
        self.assertIn("the class Arg", out["arg"], out)
        self.assertEqual(len(out["violations"]), 3, out)
        self.assertTrue(any("theirs from" in v[0] for v in out["violations"]), out)
        self.assertTrue(out["tampered"], out)


class WallTamper(unittest.TestCase):
    """Tampering latches for the life of the process: each case runs in a fresh interpreter."""

    def run_case(self, body, setup="", harness="[wall]", mappings="[]", callers="[]", built_dir=None):
        """body runs after the wall started (setup before: what the harness makes of ctypes for itself, `ffi`;
        mappings: the harness's own mappings, an expression over setup's names);
        answer(src) runs src as the answer's code (compiled under the answer's file name)."""
        script = textwrap.dedent(f"""
            import json, os, sys
            sys.path.insert(0, {WORKER!r})
            import torch
            from sieve_worker.candidate import wall
            r, w = os.pipe()
            mod = wall.load(wall.build({CACHE!r})[0])
            ffi = []
        """) + textwrap.dedent(setup) + f"\nHARNESS = {harness}\nMAPPINGS = {mappings}\nCALLERS = {callers}\n" + \
            f"BUILT = {built_dir!r}\n" + textwrap.dedent("""
            # the harness's own call, from a function of a caller module as the child's are: code that started the
            # wall (this script's module frame) is trusted but no caller (trusted.cpp w_trust)
            def harness(f, *a, **k):
                return f(*a, **k)
            W = wall.Wall.start(mod, w, "/nonexistent/answer.py", [], "strict", True, HARNESS, ffi=ffi,
                                callers=CALLERS + [sys.modules[__name__]], mappings=MAPPINGS, built_dir=BUILT)
            x = torch.randn(4)

            def answer(src, **names):
                ns = dict(names, torch=torch)
                exec(compile(src, "/nonexistent/answer.py", "exec"), ns)
                return ns
        """) + textwrap.dedent(body) + textwrap.dedent("""
            W.seal()
            os.close(w)
            out = b""
            while True:
                d = os.read(r, 65536)
                if not d:
                    break
                out += d
            print(out.decode())
        """)
        res = run_python(script)
        self.assertEqual(res.returncode, 0, res.stderr[-2000:])
        reps = [json.loads(x) for x in res.stdout.splitlines() if x.startswith("{")]
        # the seeds' key (seed.cpp) and the end of each free phase (w_phase): test_seed_*
        return [r for r in reps if r.get("kind") not in ("key", "built")]

    def test_data_path_writes_only_its_own_mapping_after_a_forward(self):
        # transport.Writer.write's Python checks ask names the answer can swap (builtins.any) and put back before the
        # guarded call: the wall itself takes the data path's torch.frombuffer only over a mapping registered before
        # the answer loaded (the object, not memory that overlaps it), in the write after a forward window
        # (redteam/wall2 h_gadget_builtins_defeat_writer_checks, h_gadget_writer_real_mapping_inputs,
        # h_gadget_writer_mapping_subrange, h_wall_register_own_mapping). Here the harness swaps transport._MAPS
        # for the Python checks, as the answer's any() did.
        reps = self.run_case("""
            import numpy as np
            out = {}

            def attempt(k, fn):
                try:
                    fn()
                    out[k] = "ok"
                except PermissionError as e:
                    out[k] = "refused: " + ("not its mapping" if "not one of the harness's own mappings" in str(e)
                                            else "no forward's write" if "outside the write" in str(e) else str(e))
                except Exception as e:
                    out[k] = type(e).__name__

            y = torch.arange(4, dtype=torch.float32)
            attempt("before any forward", lambda: writer.write([y], torch))
            W.forward(lambda: None)
            attempt("after a forward", lambda: writer.write([y], torch))
            out["written"] = np.frombuffer(writer.map, np.float32, 4).tolist()
            W.free()
            W.harness()
            attempt("after the free phase", lambda: writer.write([y], torch))
            a = np.zeros(64, np.float32)
            attempt("register after the start", lambda: mod.mappings([a]))
            attempt("close the mapping", lambda: writer.map.close())
            W.forward(lambda: None)
            for k, m in (("own numpy array", a), ("sub-range of the mapping", memoryview(writer.map)[64:]),
                         ("own mmap", mmap.mmap(-1, 4096))):
                other = transport.Writer(0, 0, 1)
                other.map, other.size, other.pinned = m, 256, [False]
                transport._MAPS = transport._MAPS + (m,)
                attempt(k, lambda: other.write([y], torch))
            print(json.dumps(out))
        """, setup="""
            import mmap
            from sieve_worker.data import transport
            fd = os.memfd_create("sieve-test-outputs")
            os.ftruncate(fd, 4096)
            writer = transport.Writer(fd, 4096, w)
        """, mappings="[writer.map]")
        got = [r for r in reps if "t" not in r][0]
        self.assertEqual(got, {"before any forward": "refused: no forward's write",
                               "after a forward": "ok", "written": [0.0, 1.0, 2.0, 3.0],
                               "after the free phase": "refused: no forward's write",
                               "register after the start": "RuntimeError", "close the mapping": "BufferError",
                               "own numpy array": "refused: not its mapping",
                               "sub-range of the mapping": "refused: not its mapping",
                               "own mmap": "refused: not its mapping"})
        seal = [r for r in reps if r.get("kind") == "seal"][0]
        self.assertIn("the data path's write", seal["tampered"])
        self.assertEqual(wall.check_report(seal, None)[:2], ("FAIL_SANDBOX", "WALL_TAMPERED"))

    def test_outputs_cannot_be_rewritten_after_the_write(self):
        # The wall copies a call's outputs into the mapping with the GIL held and leaves it read-only: the answer's
        # numpy view of the mapping (or a thread, a signal handler, a harness attribute it shadowed) cannot put
        # other values there between the write and the worker's read (redteam/wall2 h_harness_attr_mapping_fixup).
        # The wall maps the buffer itself, so no descriptor of it is left for a second, writable mapping.
        script = textwrap.dedent(f"""
            import os, sys
            sys.path.insert(0, {WORKER!r})
            import numpy as np
            import torch
            from sieve_worker.candidate import wall
            from sieve_worker.data import transport
            r, w = os.pipe()
            mod = wall.load(wall.build({CACHE!r})[0])
            fd = os.memfd_create("sieve-test-outputs")
            os.ftruncate(fd, 8192)
            writer = transport.Writer(fd, 8192, w)
            writer.adopt(mod.map_shared(fd, 8192))
            os.close(fd)
            W = wall.Wall.start(mod, w, "/nonexistent/answer.py", [], "strict", True, [wall], mappings=[writer.map])
            view = np.frombuffer(writer.map, np.float32)
            view[:4] = 7.0  # before any write the buffer holds nothing of a call's: writable
            W.forward(lambda: None)
            writer.write([torch.arange(4, dtype=torch.float32)], torch)
            print("written", view[:4].tolist(), flush=True)
            def target(n):
                try:
                    return os.readlink(f"/proc/self/fd/{{n}}")
                except OSError:  # the listing's own descriptor
                    return ""
            held = [n for n in os.listdir("/proc/self/fd") if target(n).startswith("/memfd:sieve-test-outputs")]
            print("descriptors", held, flush=True)
            view[0] = 42.0
            print("rewritten", flush=True)
        """)
        res = run_python(script)
        self.assertIn("written [0.0, 1.0, 2.0, 3.0]", res.stdout, res.stderr[-2000:])
        self.assertIn("descriptors []", res.stdout)
        self.assertNotIn("rewritten", res.stdout)
        self.assertEqual(res.returncode, -signal.SIGSEGV, res.stderr[-2000:])

    def test_seed_sealed_for_the_wall_and_set_by_it_alone(self):
        # The worker masks each check's seed with the key the wall told it first (seed.cpp key_report), the harness's
        # taskref.seed_torch hands the sealed seed to the wall, which seeds torch as torch.manual_seed would; the
        # answer can neither call the wall's seed nor read a generator's seed or state back, and the stream does not
        # outlive the harness's phase (drop_seed). redteam/wall2 h_seed_frame_locals, h_seed_wall_call_direct.
        reps = self.run_case("""
            first = json.loads(os.read(r, 4096).decode().splitlines()[0])
            key = wall.key_of(first)
            out = {"first": first.get("kind"), "key": key is not None}
            secret = 0x1234567890ABCDEF >> 2
            sealed = wall.seal_seed(key, secret)
            out["secret in the sealed seed"] = secret in sealed.values()
            taskref.seed_torch(sealed)
            a = torch.rand(5)
            torch.manual_seed(secret)
            out["as torch.manual_seed"] = torch.equal(a, torch.rand(5))
            taskref.seed_torch(sealed)
            W.forward(lambda: None)
            torch.manual_seed(secret)
            b = torch.rand(5)
            taskref.seed_torch(sealed)
            W.free()
            out["stream after the harness's phase"] = torch.equal(torch.rand(5), b)
            W.harness()

            def attempt(src):
                try:
                    answer(src, mod=mod, sealed=sealed)
                    return "ok"
                except PermissionError:
                    return "refused"
            out["answer seeds"] = attempt("mod.seed(sealed['n'], sealed['w'])")
            out["answer reads initial_seed"] = attempt("torch.initial_seed()")
            out["answer reads the state"] = attempt("torch.get_rng_state()")
            out["answer clones the state"] = attempt("torch.default_generator.clone_state()")
            out["harness reads initial_seed"] = isinstance(harness(torch.default_generator.initial_seed), int)
            print(json.dumps(out))
        """, setup="from sieve_worker.tasks import taskref", harness="[wall, taskref]")
        got = [r for r in reps if "t" not in r][0]
        self.assertEqual(got, {"first": "key", "key": True, "secret in the sealed seed": False,
                               "as torch.manual_seed": True, "stream after the harness's phase": False,
                               "answer seeds": "refused", "answer reads initial_seed": "refused",
                               "answer reads the state": "refused", "answer clones the state": "refused",
                               "harness reads initial_seed": True})
        seal = [r for r in reps if r.get("kind") == "seal"][0]
        self.assertIn("a check's seed set outside the harness's own code", seal["tampered"])

    def test_values_to_python_refused_but_in_the_constructor(self):
        # Tensor.tolist hands a tensor's values to Python and apply_/map_/map2_ call a Python function on every
        # element, with no op: in a window that computed unseen (redteam/wall2 h_apply_python_compute), and the
        # answer's code that the harness runs in its phase after a window (an attribute of a harness object it
        # shadowed) read the call's input there and copied the result into the output with allowed ops
        # (h_harness_attr_tolist_compute). Its constructor (the free phase) keeps them; so does the harness.
        reps = self.run_case("""
            out = {}
            ns = answer('''
            def read(t):
                return t.tolist()

            def apply(t):
                t.apply_(lambda v: v + 1)
                return "ok"

            def map2(t):
                t.map2_(t, t, lambda a, b, c: a)
                return "ok"
            ''')

            def attempt(k, fn):
                try:
                    fn()
                    out[k] = "ok"
                except PermissionError:
                    out[k] = "refused"
                except RuntimeError as e:
                    out[k] = "refused in the forward" if "not available in the forward" in str(e) else str(e)

            W.free()
            attempt("constructor tolist", lambda: ns["read"](x))
            attempt("constructor apply_", lambda: ns["apply"](x.clone()))
            W.harness()
            attempt("harness's own tolist", lambda: harness(x.tolist))
            W.forward(lambda: attempt("forward apply_", lambda: ns["apply"](x.clone())))
            for k in ("read", "apply", "map2"):
                attempt("harness phase " + k, lambda: ns[k](x.clone()))
            print(json.dumps(out))
        """)
        got = [r for r in reps if "t" not in r][0]
        self.assertEqual(got, {"constructor tolist": "ok", "constructor apply_": "ok", "harness's own tolist": "ok",
                               "forward apply_": "refused in the forward", "harness phase read": "refused",
                               "harness phase apply": "refused", "harness phase map2": "refused"})
        window = [r for r in reps if r.get("kind") == "window"][0]
        self.assertIn("apply_", window["first"][0]["op"])
        seal = [r for r in reps if r.get("kind") == "seal"][0]
        self.assertEqual(wall.check_report(seal, None)[:2], ("FAIL_SANDBOX", "RAW_MEMORY_ACCESS"))

    def test_the_harness_s_device_context_is_no_hook_of_the_answer_s(self):
        # taskref.device_inputs makes the task's inputs inside `with torch.device(dev)`, a torch function mode of
        # torch's (DeviceContext): the task's own guarded calls there (torch.from_numpy, and torch.as_tensor, which
        # the mode's __torch_function__ makes, its frame the innermost) are the harness's (redteam/wall2
        # l2_softmax_task_numpy_inputs, l2_softmax_task_as_tensor_inputs were FAIL_SANDBOX); the mode's method
        # called directly from another caller's frame (C callables of the answer's) and an answer's own mode are not.
        reps = self.run_case("""
            import functools
            import numpy as np
            from torch.overrides import TorchFunctionMode
            from torch.utils._device import DeviceContext
            out = {}

            def attempt(k, fn):
                try:
                    fn()
                    out[k] = "ok"
                except PermissionError as e:
                    out[k] = "refused" + (" (a mode)" if "torch function mode" in str(e) else "")

            def in_context(fn):
                with torch.device("cpu"):
                    return fn()

            class Mode(TorchFunctionMode):
                def __torch_function__(self, func, types, args=(), kwargs=None):
                    return func(*args, **(kwargs or {}))

            def in_mode(fn):
                with Mode():
                    return fn()

            attempt("task from_numpy in the device context", lambda: in_context(task.from_numpy))
            attempt("task as_tensor in the device context", lambda: in_context(task.as_tensor))
            a = np.zeros(4, np.float32)
            attempt("the mode's method from another caller", functools.partial(
                DeviceContext.__torch_function__, DeviceContext("cpu"), torch.as_tensor, (), (a,)))
            attempt("task from_numpy in another mode", lambda: in_mode(task.from_numpy))
            print(json.dumps(out))
        """, setup="""
            import types
            task = types.ModuleType("sieve_test_task")
            exec(compile('''
            import numpy as np
            import torch

            def from_numpy():
                return torch.from_numpy(np.ones(4, np.float32))

            def as_tensor():
                return torch.as_tensor(np.ones(4, np.float32))
            ''', "/nonexistent/task.py", "exec"), task.__dict__)
            import torch.utils._device
        """, callers="[task]")
        got = [r for r in reps if "t" not in r][0]
        self.assertEqual(got, {"task from_numpy in the device context": "ok",
                               "task as_tensor in the device context": "ok",
                               "the mode's method from another caller": "refused",
                               "task from_numpy in another mode": "refused (a mode)"})

    def test_a_harness_object_that_is_no_module_is_snapshotted(self):
        # on a GPU the child hands the wall libcuda's ctypes.CDLL (transport's driver) among its harness
        # modules; a CDLL answers every dunder with AttributeError, and the wall's start failed on its
        # `__name__` for every job of the H200 run of 2026-12-04 (the runtime wall did not start: AttributeError)
        reps = self.run_case("""
            print(json.dumps({"started": True}))
        """, setup="""
            import ctypes
            lib = ctypes.CDLL(None)
            ffi = [lib.getpid]
        """, harness="[wall, lib]")
        self.assertIn({"started": True}, reps)

    def test_probe_sees_modules_the_builder_client_loaded(self):
        # torch's loader (and the builder's client, extclient.py) never puts a built module in sys.modules:
        # the wall looked only there, so on the H200 no load_inline function was poisoned and every
        # legitimate CUDA answer failed the probe (builder_e2e_cuda_vadd)
        ext_path = build_test_ext(os.path.join(CACHE, "test-ext"))
        reps = self.run_case(f"""
            import torch.utils.cpp_extension as ce
            extclient.install(lambda m: None, lambda: {{"do": "built", "seq": 1, "ok": True, "path": {ext_path!r}}},
                              None, W.loaded.append)
            ext = ce.load_inline(name="sieve_test_ext", cpp_sources="", functions=["quiet"])
            mod.set_poisoner(lambda args, kw, res, value, protect: "poisoned")
            mod.arm(1234.5, True)
            probe = W.forward(lambda: ext.quiet(7))
            plain = W.forward(lambda: ext.quiet(7))
            print(json.dumps({{"in_sys_modules": "sieve_test_ext" in sys.modules, "probe": repr(probe),
                               "plain": repr(plain)}}))
        """, setup="""
            from sieve_worker.extensions import extclient  # the child imports it before the wall, as here
        """, built_dir=os.path.dirname(ext_path))
        got = [r for r in reps if "probe" in r][0]
        self.assertFalse(got["in_sys_modules"])
        self.assertEqual(got["probe"], "'poisoned'")
        self.assertEqual(got["plain"], "(7,)")

    def test_switching_record_function_off_is_refused_and_latched(self):
        reps = self.run_case("""
            f = torch.autograd._enable_record_function
            try:
                f(False)
            except RuntimeError:
                pass
            W.forward(lambda: torch.relu(x))
        """)
        self.assertIn("switches off", reps[0]["tampered"])
        self.assertEqual(reps[0]["first"][0]["op"], "aten::relu")  # still seen: the call never ran
        self.assertEqual(wall.check_report(reps[0], 1)[:2], ("FAIL_SANDBOX", "WALL_TAMPERED"))

    def test_clear_callbacks_is_refused(self):
        reps = self.run_case("""
            try:
                torch._C._autograd._clear_callbacks()
            except RuntimeError:
                pass
            W.forward(lambda: torch.relu(x))
        """)
        self.assertTrue(reps[0]["tampered"])
        self.assertEqual(reps[0]["violations"], 2)  # relu and its clamp_min: the callback is still there

    def test_transitions_out_of_order_are_latched(self):
        reps = self.run_case("""
            def fwd():
                mod.phase(1)
                torch.relu(x)
                mod.phase(2)
            W.forward(fwd)
        """)
        # two reports for one call: the worker expects exactly one (FAIL_SANDBOX WALL_TAMPERED)
        self.assertEqual([r["serial"] for r in reps if r["kind"] == "window"], [1, 2])

    def test_transition_inside_a_window_is_latched(self):
        reps = self.run_case("""
            def fwd():
                try:
                    mod.phase(0)
                except Exception:
                    pass
                torch.relu(x)
            W.forward(fwd)
        """)
        self.assertIn("out of order", reps[0]["tampered"])

    def test_attribute_added_to_a_harness_class_is_seen(self):
        # redteam/wall2 h_launchhook_property_setter: a data descriptor put on a harness class ran the answer's
        # code when the harness set that attribute
        reps = self.run_case("""
            wall.Wall.poison = property(lambda s: None, lambda s, v: None)
            W.forward(lambda: None)
        """)
        self.assertIn("added to a harness class", reps[0]["tampered"])

    def test_replaced_code_of_a_harness_function_is_seen(self):
        reps = self.run_case("""
            wall.check_report.__code__ = (lambda msg, serial: None).__code__
            W.forward(lambda: None)
        """)
        self.assertIn("code of a harness function", reps[0]["tampered"])

    def test_probe_flag_is_the_harness_s_alone(self):
        # the probe's flag and poison are the wall's statics (no Python object holds them): asking for the flag
        # in the forward, or arming a second probe, is the answer's doing and is latched
        reps = self.run_case("""
            mod.arm(None, False)
            W.forward(lambda: mod.probed())
        """)
        self.assertIn("out of turn: probed", reps[0]["tampered"])
        reps = self.run_case("""
            mod.arm(None, False)
            mod.arm(1234.5, False)
            W.forward(lambda: None)
        """)
        self.assertIn("armed twice", reps[0]["tampered"])

    def test_launch_counts_are_the_wall_s(self):
        # a Triton answer's launches are counted by the wall's launch() (hooks.py routes JITFunction.run there);
        # counts() only reads them, and count_kernel outside the harness phase is latched
        reps = self.run_case("""
            print(json.dumps({"counts": list(mod.counts())[:2]}))
            W.forward(lambda: mod.count_kernel("fake"))
            print(json.dumps({"after": list(mod.counts())[:2]}))
        """)
        self.assertEqual([r for r in reps if "counts" in r][0]["counts"], [0, []])
        self.assertEqual([r for r in reps if "after" in r][0]["after"], [0, []])
        self.assertIn("out of turn: count_kernel", [r for r in reps if r.get("kind") == "window"][0]["tampered"])

    def test_patched_torch_attribute_is_seen(self):
        reps = self.run_case("""
            torch.randn = lambda *a, **k: None
            W.forward(lambda: None)
        """)
        self.assertIn("randn", reps[0]["tampered"])

    def test_replaced_report_pipe_silences_the_report(self):
        reps = self.run_case("""
            r2, w2 = os.pipe()
            saved = os.dup(w)
            os.dup2(w2, w)
            W.forward(lambda: torch.relu(x))
            os.dup2(saved, w)
            for fd in (saved, r2, w2):
                os.close(fd)
        """)
        # the window's report went nowhere the worker reads (it sees one missing); the seal says why
        self.assertEqual([r["kind"] for r in reps], ["seal"])
        self.assertIn("report pipe", reps[0]["tampered"])

    def test_ctypes_is_shut_for_everyone_but_the_harness_functions(self):
        # the answer's Python read and wrote process memory and called native functions through ctypes, which
        # torch itself imports (redteam/wall2 h_ctypes_phase_flip, h_ctypes_host_compute, h_ctypes_at_cpu_out):
        # every primitive is refused in the C objects all aliases share, whatever module object reaches them
        reps = self.run_case("""
            import ctypes, gc, importlib
            out = {}

            def attempt(name, f):
                try:
                    f()
                    out[name] = "open"
                except PermissionError as e:
                    out[name] = "refused" if "sieve runtime wall" in str(e) else str(e)
                except Exception as e:
                    out[name] = f"{type(e).__name__}: {e}"

            y = torch.zeros(2)
            attempt("from_address", lambda: ctypes.c_int.from_address(y.data_ptr()))
            attempt("c_int", lambda: ctypes.c_int(1))
            attempt("from_buffer_copy", lambda: ctypes.c_void_p.from_buffer_copy(bytes(8)))
            attempt("memmove", lambda: ctypes.memmove(y.data_ptr(), b"abcd", 4))
            attempt("call slot wrapper", lambda: ctypes._CFuncPtr.__call__(ctypes.memmove, y.data_ptr(), b"ab", 2))
            attempt("string_at", lambda: ctypes.string_at(y.data_ptr(), 4))
            attempt("cast", lambda: ctypes.cast(y.data_ptr(), ctypes.c_void_p))
            attempt("CDLL", lambda: ctypes.CDLL(None))
            attempt("pythonapi", lambda: ctypes.pythonapi.Py_GetVersion)
            attempt("CFUNCTYPE at an address", lambda: ctypes.CFUNCTYPE(ctypes.c_int)(y.data_ptr()))
            # a type may still be made (modules define some when imported), never an instance of it
            attempt("new Union", lambda: type("U", (ctypes.Union,), {"_fields_": [("a", ctypes.c_size_t)]})())
            attempt("new type's twin", lambda: type("I", (ctypes._SimpleCData,), {"_type_": "i"}).__ctype_be__(1))
            attempt("array type", lambda: (ctypes.c_char * 8)())
            attempt("dlopen", lambda: importlib.import_module("_ctypes").dlopen(None, 0))
            attempt("PyObj_FromPtr", lambda: importlib.import_module("_ctypes").PyObj_FromPtr(id(y)))
            attempt("addressof", lambda: ctypes.addressof(ffi[0]))
            attempt("buffer of the harness's function", lambda: memoryview(ffi[0]))
            attempt("restype of the harness's function", lambda: setattr(ffi[0], "restype", ctypes.py_object))
            attempt("torch.ctypes", lambda: torch.ctypes.c_char_p(b"x"))
            attempt("through gc", lambda: [o for o in gc.get_objects() if o is ctypes.memmove][0](0, 0, 0))

            def fresh():
                for k in [k for k in sys.modules if k.split(".")[0] in ("ctypes", "_ctypes")]:
                    del sys.modules[k]
                return importlib.import_module("ctypes").c_int(1)
            attempt("fresh import", fresh)
            out["harness call"] = ffi[0]() == os.getpid()
            # every refusal above came from no frame of the answer's: charged to the harness (torch or triton
            # using ctypes is the harness's fault); the answer's own reach is the sample's
            ns = answer(chr(10).join(["def reach():", "    return ctypes.c_int(1)"]), ctypes=ctypes)
            attempt("the answer's own", ns["reach"])
            W.forward(lambda: None)
            print(json.dumps(out))
        """, setup="""
            import ctypes
            ffi.append(ctypes.CDLL(None).getpid)
        """)
        got = [r for r in reps if "t" not in r][0]
        self.assertTrue(got.pop("harness call"))
        self.assertEqual({k: v for k, v in got.items() if v != "refused"}, {})
        rep = [r for r in reps if r.get("t") == "wall"][0]
        self.assertIn("ctypes", rep["native"])
        self.assertIn("ctypes", rep["native_harness"])
        self.assertRegex(rep["native_harness"], r" at \S+:\d+")  # where torch or triton reached it, for the log
        # the fresh import removed modules from sys.modules, which the wall holds (h_r14_sysmodules_...): latched
        self.assertEqual(wall.check_report(rep, 1)[:2], ("FAIL_SANDBOX", "WALL_TAMPERED"))
        rep = dict(rep, tampered="")
        self.assertEqual(wall.check_report(rep, 1)[:2], ("FAIL_SANDBOX", "RAW_MEMORY_ACCESS"))
        self.assertEqual(wall.check_report(dict(rep, native=""), 1)[:2], ("HARNESS", "RAW_MEMORY_HARNESS"))

    def test_the_other_ways_to_raw_memory_are_shut(self):
        # round 11 (redteam/wall2 h_r11_*): raw host memory from Python with no ctypes (triton's interpreter load and
        # store, a LOAD_CONST past co_consts in made code, /proc/self/mem) and TorchScript, whose prim::tolist runs no
        # dispatcher op; what torch itself does (a decorated function renamed, a module imported from its .pyc)
        # still works
        reps = self.run_case("""
            import importlib, marshal, types
            import triton._C.libtriton as lib
            out = {}

            def attempt(name, f):
                try:
                    f()
                    out[name] = "open"
                except PermissionError as e:
                    out[name] = "refused" if "sieve runtime wall" in str(e) else str(e)
                except Exception as e:
                    out[name] = f"{type(e).__name__}: {e}"

            for name in ("load", "store", "atomic_cas", "atomic_rmw"):
                attempt("interpreter " + name, lambda: getattr(lib.interpreter, name)(None, None, None, None))
            attempt("interpreter load through __call__", lambda: type(lib.interpreter.load).__call__(
                lib.interpreter.load, None, None, None, None))
            code = (lambda: 1).__code__
            attempt("code.replace", lambda: code.replace(co_consts=()))
            attempt("CodeType", lambda: types.CodeType(*[getattr(code, "co_" + n) for n in (
                "argcount", "posonlyargcount", "kwonlyargcount", "nlocals", "stacksize", "flags", "code", "consts",
                "names", "varnames", "filename", "name", "qualname", "firstlineno", "linetable", "exceptiontable",
                "freevars", "cellvars")]))
            attempt("marshal.loads", lambda: marshal.loads(marshal.dumps(code)))
            ns = answer(chr(10).join(["def graph():", "    g = torch._C.parse_ir('graph(%x : Tensor):' + chr(10) + "
                                      "'  return (%x)')", "    return torch._C._create_function_from_graph('f', g)"]))
            attempt("a function from a graph", ns["graph"])
            ns = answer(chr(10).join(["def unit():", "    return torch._C.CompilationUnit('def f(t): return t')"]))
            attempt("CompilationUnit", ns["unit"])
            ns = answer(chr(10).join(["def graph(name):", "    return getattr(torch._C._CUDAGraph, name)(None)"]))
            for name in ("capture_begin", "replay", "raw_cuda_graph_exec"):
                attempt("CUDAGraph." + name, lambda: ns["graph"](name))
            # round 12: torch's renamer handed an object whose __code__.replace makes new bytes; a JIT-only operator
            # (no dispatcher op, no RecordFunction); a native module built after the wall, loaded from the answer's code
            import functools, shutil, tempfile, importlib.util, _json
            from torch.utils import _contextlib
            fake = type("F", (), {})()
            fake.__code__ = type("C", (), {"replace": functools.partial(types.CodeType.replace, code, co_consts=())})()
            _contextlib._set_stack_frame_name(fake, "x")  # a no-op in the candidate: code.__new__ is refused to all
            out["renamer"] = type(fake.__code__).__name__
            ns = answer(chr(10).join(["def op(name):", "    return getattr(torch.ops.aten, name)"]))
            attempt("torch.ops JIT-only", lambda: ns["op"]("_tensor_to_list"))
            attempt("_jit_get_operation JIT-only", lambda: answer(chr(10).join([
                "def f():", "    return torch._C._jit_get_operation('aten::_tensor_to_list')"]))["f"]())
            out["torch.ops dispatcher op"] = str(ns["op"]("add"))
            so = os.path.join(tempfile.mkdtemp(), "_json_copy" + os.path.splitext(_json.__file__)[1])
            shutil.copy(_json.__file__, so)
            ns = answer(chr(10).join(["def load(so):", "    spec = importlib.util.spec_from_file_location('_json', so)",
                                      "    return importlib.util.module_from_spec(spec)"]), importlib=importlib)
            attempt("a native module built after the wall", lambda: ns["load"](so))
            out["dumpable"] = ffi[0](3, 0, 0, 0, 0)  # PR_GET_DUMPABLE

            @torch.no_grad()
            def decorated():
                return 1
            out["decorated"] = decorated()
            assert "colorsys" not in sys.modules
            out["import"] = importlib.import_module("colorsys").__name__
            W.forward(lambda: None)
            print(json.dumps(out))
        """, setup="""
            import ctypes
            ffi.append(ctypes.CDLL(None).prctl)
        """)
        got = [r for r in reps if "t" not in r][0]
        self.assertEqual((got.pop("dumpable"), got.pop("decorated"), got.pop("import"), got.pop("torch.ops dispatcher op"),
                          got.pop("renamer")), (0, 1, "colorsys", "aten.add", "C"))
        self.assertEqual({k: v for k, v in got.items() if v != "refused"}, {})
        rep = [r for r in reps if r.get("t") == "wall"][0]
        self.assertIn("triton's interpreter", rep["native"] + rep["native_harness"])

    def test_native_modules_load_only_from_their_loaders_folders(self):
        # the builder's client trusted the path in the worker's reply, and the answer can swap the client's `command`
        # in its closure: a reply of its own making loaded a shared object from a folder it writes (before this
        # test: 'open' both ways). Each trusted loader loads from its own folder only: the client from the
        # built extensions' folder (the worker's, read-only to the candidate), triton's driver from the Triton cache
        # the environment named when the wall started.
        ext_path = build_test_ext(os.path.join(CACHE, "test-ext"))
        reps = self.run_case(f"""
            import shutil, tempfile, _json
            import torch.utils.cpp_extension as ce
            out = {{}}
            extclient.install(lambda m: None, lambda: {{"do": "built", "seq": 1, "ok": True, "path": {ext_path!r}}},
                              None, W.loaded.append)
            so = os.path.join(tempfile.mkdtemp(), "_json" + os.path.splitext(_json.__file__)[1])
            shutil.copy(_json.__file__, so)
            link = os.path.join(os.path.dirname({ext_path!r}), "sieve_link_" + str(os.getpid()) + ".so")
            os.symlink(so, link)
            ns = answer(chr(10).join([
                "def forge(path, name):",
                "    build = [c.cell_contents for c in ce.load_inline.__closure__",
                "             if getattr(c.cell_contents, '__name__', '') == 'build'][0]",
                "    cells = {{n: c for n, c in zip(build.__code__.co_freevars, build.__closure__)}}",
                "    seq = cells['seq'].cell_contents",
                "    cells['command'].cell_contents = lambda: {{'do': 'built', 'seq': seq[0], 'ok': True, 'path': path}}",
                "    return ce.load_inline(name=name, cpp_sources='', functions=['x'])"]), ce=ce)
            for name, path in (("a forged reply", so), ("a link in the built folder", link)):
                try:
                    ns["forge"](path, "_json")
                    out[name] = "open"
                except PermissionError as e:
                    out[name] = "refused" if "sieve runtime wall" in str(e) else str(e)
                except Exception as e:
                    out[name] = f"{{type(e).__name__}}: {{e}}"
            os.unlink(link)
            out["the worker's reply"] = ns["forge"]({ext_path!r}, "sieve_test_ext").__name__
            W.forward(lambda: None)
            print(json.dumps(out))
        """, setup="""
            from sieve_worker.extensions import extclient  # the child imports it before the wall, as here
        """, built_dir=os.path.dirname(ext_path))
        got = [r for r in reps if "t" not in r][0]
        self.assertEqual(got, {"a forged reply": "refused", "a link in the built folder": "refused",
                               "the worker's reply": "sieve_test_ext"})
        rep = [r for r in reps if r.get("t") == "wall"][0]
        self.assertIn("built extensions' folder", rep["native"])

    def test_the_triton_cache_is_written_by_triton_alone(self):
        # with a Triton that builds a launcher per kernel signature (3.6, the H200's), triton's driver loads the
        # launcher it finds in the candidate's Triton cache at the source's key: one the answer planted there would
        # be native code of the answer's, loaded by trusted code. Writes there are triton's cache manager's alone
        # (ffi.cpp cache_audit), a shared object's only for triton's driver; the answer's own kernels still compile
        # and cache (a compile for a GPU target needs no GPU)
        reps = self.run_case("""
            import tempfile
            import triton, triton.language as tl
            from triton.compiler import ASTSource
            from triton.backends.compiler import GPUTarget
            from triton.runtime import build, cache as tcache
            cache = CACHE_DIR
            key = os.path.join(cache, "KEY")
            scratch = tempfile.mkdtemp()
            plain = os.path.join(scratch, "x")
            with open(plain, "wb") as f:
                f.write(b"ELF")
            so = "__triton_launcher.cpython-312-x86_64-linux-gnu.so"
            out = {}
            ns = answer(chr(10).join([
                "def attempt(out, name, f):",
                "    try:",
                "        f()",
                "        out[name] = 'open'",
                "    except PermissionError as e:",
                "        out[name] = 'refused' if 'sieve runtime wall' in str(e) else str(e)",
                "    except Exception as e:",
                "        out[name] = type(e).__name__ + ': ' + str(e)"]))
            attempt = lambda name, src, **names: ns["attempt"](out, name, answer(
                chr(10).join(["def f():"] + ["    " + line for line in src.split(chr(10))]), os=os, **names)["f"])
            attempt("open a launcher", f"open({os.path.join(key, so)!r}, 'wb').write(b'ELF')")
            attempt("open any file", f"open({os.path.join(key, 'k.json')!r}, 'w').write('{{}}')")
            attempt("os.open", f"os.close(os.open({os.path.join(key, 'x')!r}, os.O_WRONLY | os.O_CREAT))")
            attempt("rename in", f"os.rename({plain!r}, {os.path.join(key, so)!r})")
            attempt("replace in", f"os.replace({plain!r}, {os.path.join(key, 'y')!r})")
            attempt("link out", f"os.link({os.path.join(key, 'made.so')!r}, {os.path.join(scratch, 'l')!r})")
            attempt("symlink in", f"os.symlink({plain!r}, {os.path.join(key, so)!r})")
            attempt("mkdir in", f"os.mkdir({os.path.join(cache, 'K2')!r})")
            attempt("rename by folder descriptor", chr(10).join([
                f"d = os.open({os.path.dirname(cache)!r}, os.O_RDONLY)",
                f"os.rename({plain!r}, os.path.join({os.path.basename(cache)!r}, 'KEY', 'z'), dst_dir_fd=d)"]))
            attempt("a relative shared object", chr(10).join([
                f"d = os.open({key!r}, os.O_RDONLY)",
                f"os.close(os.open({so!r}, os.O_WRONLY | os.O_CREAT, dir_fd=d))"]))
            attempt("through the working folder", chr(10).join([
                f"os.chdir({key!r})", "open('w.json', 'w').write('{{}}')"]))
            attempt("the cache's put, a shared object", f"tcache.get_cache_manager('ab' * 32).put(b'ELF', {so!r})",
                    tcache=tcache)
            attempt("the build helper with a key of the answer's", chr(10).join([
                "build.compile_so_from_src('int f(void) { return 1; }', 'evil')"]), build=build)
            # a process that names the cache: triton's build helper told to compile into it (gcc writes with no audit
            # event of Python's)
            attempt("a process naming the cache", f"import subprocess; subprocess.run(['true', {os.path.join(key, so)!r}])")
            attempt("the build helper into the cache", chr(10).join([
                f"open({os.path.join(scratch, 'e.c')!r}, 'w').write('int f(void) {{ return 1; }}')",
                f"build._build('evil', {os.path.join(scratch, 'e.c')!r}, {key!r}, [], [], [], [])"]), build=build)
            attempt("a relative build into the cache", chr(10).join([  # redteam/wall2 h_r16_cache_plant_relative_build
                f"os.chdir({os.path.dirname(cache)!r})",
                f"build._build('evil', {os.path.join(scratch, 'e.c')!r}, {os.path.join(os.path.basename(cache), 'KEY')!r}, [], [], [], [])"]),
                build=build)
            attempt("a process of the answer's", "import subprocess; subprocess.run(['true'])")
            attempt("a process with no audit event", "import _posixsubprocess; _posixsubprocess.fork_exec()")
            attempt("a link to a new name in the cache", f"os.symlink({os.path.join(key, 'new.so')!r}, {os.path.join(scratch, 'dl')!r})")
            attempt("through a link made before", f"open({DANGLING!r}, 'wb').write(b'ELF')")
            os.chdir(scratch)
            # what stays open: the answer's own files elsewhere, the cache's put of data, triton's compile
            attempt("a scratch file", f"open({os.path.join(scratch, 'n.so')!r}, 'wb').write(b'')")
            attempt("the cache's put, data", "tcache.get_cache_manager('cd' * 32).put('{}', 'k.json')", tcache=tcache)
            kfile = os.path.join(scratch, "kernel_answer.py")  # triton reads a kernel's source from its file
            with open(kfile, "w") as f:
                f.write(chr(10).join([
                    "import triton, triton.language as tl",
                    "from triton.compiler import ASTSource",
                    "from triton.backends.compiler import GPUTarget",
                    "@triton.jit",
                    "def k(x, y, n, B: tl.constexpr):",
                    "    o = tl.program_id(0) * B + tl.arange(0, B)",
                    "    tl.store(y + o, tl.load(x + o, mask=o < n), mask=o < n)",
                    "sig = {'x': '*fp32', 'y': '*fp32', 'n': 'i32', 'B': 'constexpr'}",
                    "def f():",
                    "    triton.compile(ASTSource(k, sig, {'B': 128}), target=GPUTarget('cuda', 80, 32))",
                    "def g():",  # ptxas started with a CPATH of the answer's
                    "    import os",
                    "    os.environ['CPATH'] = os.path.dirname(__file__)",
                    "    try:",
                    "        triton.compile(ASTSource(k, sig, {'B': 256}), target=GPUTarget('cuda', 80, 32))",
                    "    finally:",
                    "        del os.environ['CPATH']",
                    "def with_default(name, value, B):",  # Popen's defaults swapped: what the child runs, not the
                    "    import subprocess",              # audit event's view of it (round 17)
                    "    f = subprocess.Popen.__init__",
                    "    names = f.__code__.co_varnames[:f.__code__.co_argcount]",
                    "    old = f.__defaults__",
                    "    d = list(old)",
                    "    d[names.index(name) - (len(names) - len(d))] = value",
                    "    f.__defaults__ = tuple(d)",
                    "    try:",
                    "        triton.compile(ASTSource(k, sig, {'B': B}), target=GPUTarget('cuda', 80, 32))",
                    "    finally:",
                    "        f.__defaults__ = old", ""]))
            import importlib.util
            spec = importlib.util.spec_from_file_location("kernel_answer", kfile)
            cns = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(cns)
            cns = vars(cns)
            ns["attempt"](out, "triton's compile", cns["f"])
            ns["attempt"](out, "triton's compile with the build's environment changed", cns["g"])
            import functools
            ns["attempt"](out, "a function in the child", lambda: cns["with_default"](
                "preexec_fn", functools.partial(os.putenv, "LD_PRELOAD", "/nonexistent.so"), 512))
            ns["attempt"](out, "an environment of the answer's", lambda: cns["with_default"](
                "env", {**os.environ, "CPATH": scratch}, 1024))
            attempt("posix_spawn", "os.posix_spawn('/bin/true', ['true'], dict(os.environ))")
            W.forward(lambda: None)
            print(json.dumps(out))
        """, setup="""
            import tempfile
            CACHE_DIR = tempfile.mkdtemp(prefix="sieve-triton-cache-")
            os.environ["TRITON_CACHE_DIR"] = CACHE_DIR
            os.makedirs(os.path.join(CACHE_DIR, "KEY"))
            open(os.path.join(CACHE_DIR, "KEY", "made.so"), "wb").close()
            DANGLING = os.path.join(tempfile.mkdtemp(), "dangling")  # a link to a name the cache does not have yet
            os.symlink(os.path.join(CACHE_DIR, "KEY", "new2.so"), DANGLING)
        """)
        got = [r for r in reps if "t" not in r][0]
        opened = {k: v for k, v in got.items() if v != "refused"}
        self.assertEqual(opened, {"a scratch file": "open", "the cache's put, data": "open",
                                  "triton's compile": "open"})
        rep = [r for r in reps if r.get("t") == "wall"][0]
        self.assertIn("Triton cache", rep["native"])

    def test_dlpack_and_numpy_views_refused(self):
        # numpy.from_dlpack gave writable views of tensor memory that no op sees (redteam/wall2 h_dlpack_numpy),
        # and a numpy view made in __init__ serves the forward all the same
        reps = self.run_case("""
            import numpy as np
            out = {}
            for name, f in (("np.from_dlpack", lambda: np.from_dlpack(x)),
                            ("torch.utils.dlpack", lambda: torch.utils.dlpack.to_dlpack(x)),
                            ("torch.from_dlpack", lambda: torch.from_dlpack(np.zeros(2))),
                            # numpy's array interface takes a raw address (redteam/wall2 h_numpy_interface_...)
                            ("np.asarray at an address", lambda: np.asarray(type("V", (), {"__array_interface__": {
                                "data": (x.data_ptr(), False), "shape": (4,), "typestr": "<f4", "version": 3}})())),
                            ("as_strided", lambda: np.lib.stride_tricks.as_strided(np.zeros(2), (9,), (8,)))):
                try:
                    f()
                    out[name] = "open"
                except PermissionError as e:
                    out[name] = "refused" if "sieve runtime wall" in str(e) else str(e)
            out["harness numpy"] = len(harness(x.numpy))  # the harness (and the task) outside a window: allowed
            ns = answer(chr(10).join(["def init(t):", "    try:", "        return t.numpy()",
                                      "    except PermissionError:", "        return 'refused'"]))
            out["answer numpy in __init__"] = ns["init"](x)
            W.forward(lambda: None)
            print(json.dumps(out))
        """)
        got = [r for r in reps if "t" not in r][0]
        self.assertEqual(got, {"np.from_dlpack": "refused", "torch.utils.dlpack": "refused",
                               "torch.from_dlpack": "refused", "np.asarray at an address": "refused",
                               "as_strided": "refused", "harness numpy": 4,
                               "answer numpy in __init__": "refused"})
        rep = [r for r in reps if r.get("t") == "wall"][0]
        self.assertIn("DLPack", rep["native_harness"])  # the test's own calls: no frame of the answer's
        self.assertTrue(rep["native"])  # the answer's numpy view in __init__
        self.assertEqual(wall.check_report(rep, 1)[:2], ("FAIL_SANDBOX", "RAW_MEMORY_ACCESS"))

    def test_tensors_over_foreign_memory_refused_to_the_answer(self):
        # torch.as_tensor/asarray of a numpy array, a legacy constructor, a file or shared-memory mapping made a
        # tensor whose memory numpy also writes (redteam/wall2 h_as_tensor_numpy_alias and its round); the
        # serializer read a tensor's bytes with no op (h_torch_save_bytesio_read). Lists and numbers stay allowed.
        reps = self.run_case("""
            import io
            import numpy as np
            a = np.zeros(4, np.float32)
            out = {"harness as_tensor(np) shares": harness(torch.as_tensor, a).data_ptr() == a.__array_interface__["data"][0],
                   "harness from_numpy": tuple(harness(torch.from_numpy, a).shape)}
            cases = {"as_tensor(list)": "torch.as_tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float32)",
                     "tensor(list)": "torch.tensor([1, 2, 3], device='cpu')",
                     "tensor(numpy float)": "torch.tensor(np.float32(2.0))",
                     "tensor(size)": "torch.tensor(x.shape)",
                     "as_tensor(tensor)": "torch.as_tensor(x, dtype=torch.float64)",
                     "Tensor(2, 3)": "torch.Tensor(2, 3)",
                     "as_tensor(np)": "torch.as_tensor(a)",
                     "computed asarray(np)": "getattr(torch._C._VariableFunctions, 'as' + 'array')(a)",
                     "tensor([np, np])": "torch.tensor([a, a])",
                     "asarray(memoryview)": "torch.asarray(memoryview(bytearray(16)))",
                     "FloatTensor(np)": "torch.FloatTensor(a)",
                     "subclass made later(np)": "type('T', (torch.Tensor,), {})(a)",
                     "TensorBase.new(np)": "torch._C.TensorBase.__dict__['new'](x, a)",
                     "from_file": "torch.from_file('/nonexistent/f', shared=True, size=4)",
                     "share_memory_": "torch.zeros(4).share_memory_()",
                     "torch.save": "torch.save(x, io.BytesIO())",
                     "storage.__reduce__": "x.untyped_storage().__reduce__()",
                     "JIT pickler": "torch._C._pickle_save(x)",
                     "storage at an address": "torch._C._construct_storage_from_data_pointer(1, torch.device('cpu'), 4)"}
            for k, src in cases.items():
                ns = answer(chr(10).join(["def f():", "    try:", "        " + src, "        return 'ok'",
                                          "    except PermissionError as e:",
                                          "        return 'refused' if 'sieve runtime wall' in str(e) else str(e)",
                                          "    except Exception as e:", "        return type(e).__name__"]),
                            np=np, io=io, a=a, x=x)
                out[k] = ns["f"]()
            # code compiled under a borrowed file name (torch's own module.py), run in the harness's phase: not the
            # harness's code (redteam/wall2 h_borrowed_filename_harness_phase_alias)
            g = {"torch": torch}
            exec(compile(chr(10).join(["def borrowed(a):", "    return torch.as_tensor(a)", "def view(t):",
                                       "    return t.numpy()"]), torch.nn.modules.module.__file__, "exec"), g)
            import functools
            import torch.utils.data
            held = {}
            # torch's own default_convert calls as_tensor: chained with C callables only, no frame of the answer's
            gadget = functools.partial(map, held.__setitem__, ["t"], map(torch.utils.data.default_convert, [a]))
            for k, f in (("harness phase, torch gadget", lambda: list(gadget())),
                         ("harness phase, borrowed name", lambda: g["borrowed"](a)),
                         ("harness phase, borrowed name, numpy()", lambda: g["view"](x))):
                try:
                    f()
                    out[k] = "ok"
                except PermissionError:
                    out[k] = "refused"
            W.forward(lambda: None)
            # the free phase (the answer's constructor): refused with no frame of the answer's too, charged to the
            # harness (code the answer compiled under a borrowed file name)
            W.free()
            try:
                torch.as_tensor(a)
                out["free phase, no answer frame"] = "ok"
            except PermissionError:
                out["free phase, no answer frame"] = "refused"
            W.harness()
            print(json.dumps(out))
        """)
        got = [r for r in reps if "t" not in r][0]
        ok = ["as_tensor(list)", "tensor(list)", "tensor(numpy float)", "tensor(size)", "as_tensor(tensor)",
              "Tensor(2, 3)"]

        self.assertEqual(got, {"harness as_tensor(np) shares": True, "harness from_numpy": [4],
                               **{k: "ok" for k in ok},
                               **{k: "refused" for k in got if k not in ok and not k.startswith("harness")
                                  and k != "free phase, no answer frame"},
                               "harness phase, torch gadget": "refused", "harness phase, borrowed name": "refused",
                               "harness phase, borrowed name, numpy()": "refused",
                               "free phase, no answer frame": "refused"})
        self.assertEqual(len(got), 2 + 19 + 4)
        rep = [r for r in reps if r.get("t") == "wall"][0]
        self.assertIn("torch.as_tensor of a numpy.ndarray", rep["native"])
        self.assertEqual(wall.check_report(rep, 1)[:2], ("FAIL_SANDBOX", "RAW_MEMORY_ACCESS"))
        seal = [r for r in reps if r.get("kind") == "seal"][0]
        self.assertIn("torch.as_tensor", seal["native_harness"])  # the free phase's refusal, no answer frame


class CheckReport(unittest.TestCase):
    def test_garbled_and_out_of_order(self):
        self.assertEqual(wall.check_report({"kind": "nope"}, 1)[1], "WALL_TAMPERED")
        ok = {"t": "wall", "kind": "window", "serial": 2, "violations": 0, "tampered": ""}
        self.assertIsNone(wall.check_report(ok, 2))
        self.assertEqual(wall.check_report(ok, 3)[1], "WALL_TAMPERED")
        self.assertEqual(wall.check_report(dict(ok, violations="x"), 2)[1], "WALL_TAMPERED")

    def test_a_process_start_is_the_sandbox_s_subprocess(self):
        # ffi.cpp's C audit hook runs before the sandbox's Python one: its refusal of a process start keeps the
        # sandbox's reason (fixture sandbox_subprocess), anything else native is raw memory access
        rep = {"t": "wall", "kind": "window", "serial": 1, "violations": 0, "tampered": "",
               "native": "starting a process but from triton's own code (subprocess.Popen)"}
        self.assertEqual(wall.check_report(rep, 1)[:2], ("FAIL_SANDBOX", "SUBPROCESS"))
        self.assertEqual(wall.check_report(dict(rep, native="ctypes: making a c_int object"), 1)[:2],
                         ("FAIL_SANDBOX", "RAW_MEMORY_ACCESS"))
        from sieve_worker.candidate import child
        from sieve_worker import rules
        e = PermissionError("sieve runtime wall: refused to answers: starting a process but through subprocess "
                            "(os.system) (no raw memory access or foreign calls in the candidate)")
        self.assertEqual(child.classify(e, True), "SUBPROCESS")
        self.assertEqual(rules.status_of("SUBPROCESS"), "FAIL_SANDBOX")

    def test_a_device_print_refused_inside_the_compile_is_named(self):
        # hooks.py refuses triton's print; on the GPU the code generator raises its own CompilationError from the
        # refusal (seen on the H100: FAIL_COMPILE): the chain's refusal names the verdict
        from sieve_worker.candidate import child, hooks
        from sieve_worker import rules

        class CompilationError(Exception):
            pass
        try:
            try:
                raise hooks.DevicePrint("sieve runtime wall: refused: a device print in a kernel")
            except hooks.DevicePrint as inner:
                raise CompilationError("at 9:4: DevicePrint(...)") from inner
        except CompilationError as e:
            self.assertEqual(child.classify(e, False), "DEVICE_PRINT")
        self.assertEqual(child.classify(CompilationError("at 9:4"), False), "COMPILE_ERROR")
        self.assertEqual(rules.status_of("DEVICE_PRINT"), "FAIL_SANDBOX")


if __name__ == "__main__":
    unittest.main()
