"""The extension builder (builder.py, sched.py, elfimports.py): request validation, the glue torch writes,
no shell anywhere, the narrowed builder process, the scheduler's bound, cache and clock. Builds are real
(the host C++ compiler; nvcc where present), kept small: no torch headers except where said."""
import json
import os
import selectors
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import textwrap
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "gpu", "worker"))
from sieve_worker.extensions import builder, elfimports, extclient, sched  # noqa: E402
from sieve_worker import worker  # noqa: E402

TC = None


def toolchain():
    global TC
    if TC is None:
        TC = builder.toolchain()
    return TC


def request(name="ext", cpp="int answer() { return 42; }", **kw):
    return {"name": name, "cpp_sources": [cpp], "functions": None, "with_cuda": False,
            "no_implicit_headers": True, **kw}


class Validate(unittest.TestCase):
    def refused(self, code, **kw):
        with self.assertRaises(builder.Refused) as cm:
            builder.validate(request(**kw))
        self.assertEqual(cm.exception.code, code)
        return str(cm.exception)

    def test_flags_outside_the_allowlist(self):
        for flag in ["-I/etc", "-B/tmp", "-specs=/tmp/s", "@/tmp/args", "-o", "/tmp/x", "-x", "c", "-fplugin=/x.so",
                     "-Wl,-rpath,/tmp", "-ccbin", "--compiler-bindir=/tmp", "-include", "/etc/passwd", "-O2; id",
                     "-DX=$(id)", "-DX=`id`", "-O2 -fplugin=x", "-DX=a|b", "-imacros/etc/passwd", "-save-temps",
                     "--keep", "-Xcompiler", "-Xlinker"]:
            for key in ("extra_cflags", "extra_cuda_cflags"):
                msg = self.refused("EXTENSION_FLAGS", **{key: [flag]})
                self.assertIn(repr(flag[:80]), msg)
        for flag in ["-L/tmp", "-l:evil.so", "-Wl,--wrap=malloc", "-ldl", "-lpython3", "/tmp/x.so", "-shared"]:
            self.refused("EXTENSION_FLAGS", extra_ldflags=[flag])

    def test_allowed_flags_pass_and_empty_ones_vanish(self):
        r = builder.validate(request(extra_cflags=["-O3", ""], extra_cuda_cflags=["--use_fast_math", "-O3"],
                                     extra_ldflags=[" ", "-lcudart"]))
        self.assertEqual(r["extra_cflags"], ["-O3"])
        self.assertEqual(r["extra_ldflags"], ["-lcudart"])

    def test_names_paths_and_modes(self):
        self.refused("EXTENSION_FLAGS", name="a;b")
        self.refused("EXTENSION_FLAGS", functions=["f()"])
        self.refused("EXTENSION_FLAGS", extra_include_paths=["/etc"])
        self.refused("EXTENSION_FLAGS", is_python_module=False)
        self.refused("EXTENSION_FLAGS", build_directory="/tmp")
        self.refused("EXTENSION_SOURCE", cpp="x" * (2 << 20))


class Glue(unittest.TestCase):
    def test_same_sources_as_torch_load_inline(self):
        import torch.utils.cpp_extension as ce
        saved = ce._jit_compile
        ce._jit_compile = lambda *a, **k: None
        d = tempfile.mkdtemp()
        try:
            for handling in (True, False):
                ce.load_inline("m", ["int f(int x);", "int g();"], cuda_sources=["__global__ void k() {}"],
                               functions=["f", "g"], build_directory=d, with_pytorch_error_handling=handling)
                cpp, cu = builder.sources(builder.validate({
                    "name": "m", "cpp_sources": ["int f(int x);", "int g();"], "cuda_sources": ["__global__ void k() {}"],
                    "functions": ["f", "g"], "with_pytorch_error_handling": handling}))
                with open(os.path.join(d, "main.cpp")) as f:
                    self.assertEqual(f.read(), cpp)
                with open(os.path.join(d, "cuda.cu")) as f:
                    self.assertEqual(f.read(), cu)
        finally:
            ce._jit_compile = saved
            shutil.rmtree(d)


class Process(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="sieve-builder-test-")
        os.chmod(self.dir, 0o755)

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def test_builds_a_module_and_reads_its_imports(self):
        req = builder.validate(request(cpp='#include <cstdlib>\nextern "C" int f() { return std::system("id"); }'))
        res = builder.build_sync(req, toolchain(), self.dir, limit=300)
        self.assertTrue(res["ok"], res.get("log"))
        self.assertTrue(res["sandbox"]["landlock_abi"] >= 1 or "landlock" in res["sandbox"])
        syms, _ = elfimports.imports(os.path.join(self.dir, "ext.so"))
        self.assertIn("system", [s.split("@")[0] for s in syms])
        found = elfimports.judge(os.path.join(self.dir, "ext.so"))
        self.assertEqual([c for c, _, _ in found], ["EXTENSION_IMPORT"])

    def test_the_builder_cannot_run_a_shell(self):
        """A step that is not a compiler (here written into the plan by hand) is refused by landlock."""
        tc = toolchain()
        builder.write_plan(builder.validate(request()), tc, self.dir, 60)
        with open(os.path.join(self.dir, "plan.json")) as f:
            p = json.load(f)
        marker = os.path.join(self.dir, "shell-ran")
        p["steps"] = [["run", "/bin/sh", "-c", f"touch {marker}"]]
        with open(os.path.join(self.dir, "plan.json"), "w") as f:
            json.dump(p, f)
        proc = builder.spawn(self.dir)
        proc.communicate(timeout=120)
        with open(os.path.join(self.dir, "result.json")) as f:
            res = json.load(f)
        if "landlock_abi" not in res.get("sandbox", {}) and "Permission" not in res["log"]:
            self.skipTest(f"landlock unavailable here: {res}")
        self.assertFalse(res["ok"])
        self.assertFalse(os.path.exists(marker))
        self.assertIn("Permission", res["log"])

    def test_nvcc_steps_run_no_shell(self):
        tc = toolchain()
        if not tc["nvcc"]:
            self.skipTest(f"no nvcc under {tc['cuda_home']}")
        with open(os.path.join(self.dir, "k.cu"), "w") as f:
            f.write("__global__ void k(float* x) { x[0] = 1; }\n")
        env = {"PATH": os.path.dirname(tc["nvcc"]) + ":/usr/bin:/bin", "TMPDIR": self.dir}
        steps = builder.nvcc_steps([tc["nvcc"], "-ccbin", tc["cxx"], "-c", "k.cu", "-o", "k.o"], env, self.dir,
                                   time.monotonic() + 120, set(tc["exec"]))
        progs = [os.path.basename(w[0]) for kind, w in steps if kind == "run"]
        self.assertTrue(any(p.startswith("cicc") for p in progs) and "ptxas" in progs, progs)
        self.assertFalse({"sh", "bash", "dash", "ninja"} & set(progs))
        # a step whose program is not among the allowed compilers is refused, not run
        allowed = {p for p in tc["exec"] if not os.path.basename(p).startswith("cicc")}
        with self.assertRaises(PermissionError) as cm:
            builder.nvcc_steps([tc["nvcc"], "-ccbin", tc["cxx"], "-c", "k.cu", "-o", "k.o"], env, self.dir,
                               time.monotonic() + 120, allowed)
        self.assertIn("cicc", str(cm.exception))


    def test_device_code_that_prints_is_refused(self):
        """printf in a kernel is vprintf in the PTX nvcc leaves in the build folder: the judge refuses it (a channel
        from the kernel's data to the host), and the same kernel without the print passes that check."""
        tc = toolchain()
        if not tc["nvcc"]:
            self.skipTest(f"no nvcc under {tc['cuda_home']}")
        launch = "void launch(const float* x, float* y) { k<<<1, 32>>>(x, y); }\n"
        found = {}
        for case, body in (("prints", 'printf("%a\\n", x[threadIdx.x]); y[threadIdx.x] = x[threadIdx.x];'),
                           ("quiet", "y[threadIdx.x] = x[threadIdx.x];")):
            d = os.path.join(self.dir, case)
            req = builder.validate(request(name=f"ext_{case}", cuda_sources=[
                "#include <cstdio>\n__global__ void k(const float* x, float* y) { " + body + " }\n" + launch],
                with_cuda=True))
            res = builder.build_sync(req, tc, d, limit=300)  # the link may fail on a torch without CUDA: the PTX stays
            self.assertTrue([n for n in os.listdir(d) if n.endswith(".ptx")], res.get("log"))
            found[case] = elfimports.device_prints(d)
        self.assertEqual([(c, s) for c, _, s in found["prints"]], [("EXTENSION_IMPORT", "vprintf")])
        self.assertEqual(found["quiet"], [])


class FakeWorker:
    """The parts of worker.Worker the scheduler uses: its selector, running jobs and the two ways it answers."""

    def __init__(self):
        self.sel = selectors.DefaultSelector()
        self.running = {}
        self.failed, self.sent = [], []

    def fail(self, job, status, stage, reasons, message):
        job.failure = (status, stage, reasons, message)
        self.failed.append((job.job, status, reasons, message))

    def invalid(self, job, why):
        self.fail(job, "FAIL_SANDBOX", job.stage, ["RESULT_STREAM_INVALID"], why)

    def send_command(self, job, cmd):
        self.sent.append((job.job, cmd, time.monotonic()))


class Scheduling(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="sieve-sched-test-")
        self.w = FakeWorker()
        self.s = sched.Scheduler(self.w, os.path.join(self.root, "built"), parallel=1)
        self.s.tc = toolchain()

    def tearDown(self):
        self.s.stop()
        shutil.rmtree(self.root, ignore_errors=True)

    def job(self, n, left=120.0, policy="strict"):
        j = worker.Job({"job": n, "policy": policy})
        j.fd = 1000 + n
        j.deadline = time.monotonic() + left
        j.ext_dir = os.path.join(self.root, f"job{n}")
        os.makedirs(j.ext_dir)
        self.w.running[j.fd] = j
        return j

    def send(self, job, req, seq=1):
        data = json.dumps(req)
        half = len(data) // 2
        self.s.on_message(job, {"t": "build", "seq": seq, "part": 0, "parts": 2, "data": data[:half]})
        self.s.on_message(job, {"t": "build", "seq": seq, "part": 1, "parts": 2, "data": data[half:]})

    def drain(self, limit=600):
        end = time.monotonic() + limit
        peak = 0
        while (self.s.running or self.s.queue) and time.monotonic() < end:
            peak = max(peak, len(self.s.running))
            for key, _ in self.w.sel.select(0.2):
                self.s.read(key.data)
            self.s.expire()
        return peak

    def test_bound_queue_cache_and_clock(self):
        jobs = [self.job(i) for i in range(3)]
        for i, j in enumerate(jobs):
            self.send(j, request(name=f"e{i}", cpp=f"int f{i}() {{ return {i}; }}"))
            self.assertIsNone(j.deadline)  # the stage's clock stops while queued and built
        self.assertEqual(len(self.s.running), 1)
        self.assertEqual(len(self.s.queue), 2)
        t0 = time.monotonic()
        self.assertEqual(self.drain(), 1)  # never more than `parallel` builds at once
        waited = time.monotonic() - t0
        self.assertEqual(self.w.failed, [])
        self.assertEqual([c["ok"] for _, c, _ in self.w.sent], [True] * 3)
        last = jobs[2]
        # the last job waited for two builds, and is charged only its own
        sent_at = self.w.sent[-1][2]
        self.assertGreater(last.deadline - sent_at, 120.0 - (waited * 0.8))
        for _, c, _ in self.w.sent:
            self.assertTrue(os.path.isfile(c["path"]) and not os.access(c["path"], os.W_OK) or os.geteuid() == 0)
        # the same request again: from the cache, no build
        again = self.job(9)
        self.send(again, request(name="e0", cpp="int f0() { return 0; }"))
        self.assertEqual(self.s.stats["cached"], 1)
        self.assertFalse(self.s.running or self.s.queue)
        self.assertTrue(self.w.sent[-1][1]["ok"])

    def test_timeout_counts_the_build(self):
        slow = self.job(1, left=0.05)
        self.send(slow, request(name="slow"))
        self.drain()
        self.assertEqual(self.w.failed[0][1:3], ("TIMEOUT", ["STAGE_TIMEOUT"]))
        self.assertIn("queued for a builder is not counted", self.w.failed[0][3])

    def test_refused_and_import_verdicts(self):
        j = self.job(1)
        self.send(j, request(extra_cflags=["-O2;id"]))
        self.assertEqual(self.w.failed[-1][1:3], ("FAIL_STATIC", ["EXTENSION_FLAGS"]))
        j = self.job(2)
        self.send(j, request(name="dl", cpp='#include <dlfcn.h>\nvoid* g() { return dlopen("x", 0); }'))
        self.drain()
        self.assertEqual(self.w.failed[-1][1:3], ("FAIL_STATIC", ["EXTENSION_IMPORT"]))
        self.assertIn("dlopen", self.w.failed[-1][3])


class Client(unittest.TestCase):
    def test_request_in_parts_with_this_torchs_positions(self):
        """The candidate's load_inline binds arguments as the installed torch does (positions differ between
        versions), sends the request in parts under the line limit, and raises CompilationError on a failed
        build; torch's own load_inline is not called."""
        import torch.utils.cpp_extension as ce
        saved = ce.load_inline, ce.load
        sent = []
        try:
            extclient.install(sent.append, lambda: {"do": "built", "seq": 1, "ok": False, "message": "no"}, "9.0")
            big = "// " + "x" * 100000
            with self.assertRaises(extclient.CompilationError):
                ce.load_inline("m", ["int f();", big], "__global__ void k(){}", functions=["f"],
                               extra_cuda_cflags=["-O3"])
        finally:
            ce.load_inline, ce.load = saved
        self.assertGreater(len(sent), 4)
        self.assertTrue(all(len(json.dumps(m)) < 64 << 10 for m in sent))
        req = builder.validate(json.loads("".join(m["data"] for m in sent)))
        self.assertEqual((req["functions"], req["cuda_sources"], req["arch"], req["extra_cuda_cflags"]),
                         (["f"], ["__global__ void k(){}"], "90", ["-O3"]))


class Judge(unittest.TestCase):
    def test_aten_ops_by_policy(self):
        call = "at::_ops::mm::call(at::Tensor const&, at::Tensor const&)"
        self.assertEqual(elfimports.judge_symbol(call, "strict")[0], "EXTENSION_IMPORT")
        self.assertEqual(elfimports.judge_symbol(call, "kernelbench")[0], "TORCH_CORE_OP_ALLOWED")
        self.assertEqual(elfimports.judge_symbol("at::_ops::sum::call(at::Tensor const&)", "kernelbench")[0],
                         "EXTENSION_IMPORT")
        self.assertIsNone(elfimports.judge_symbol("at::_ops::empty_like::call(at::Tensor const&)", "strict")[0])
        for bad in ["c10::Dispatcher::realSingleton()", "PyImport_ImportModule", "PyRun_SimpleStringFlags",
                    "cublasSgemm_v2", "dlopen@GLIBC_2.34", "cuModuleLoadData", "torch::nn::LinearImpl::reset()",
                    "at::native::add(at::Tensor const&, at::Tensor const&, c10::Scalar const&)", "PyEval_GetGlobals",
                    "at::cuda::blas::gemm<float>(char, char, long, long, long, float, float const*, long)",
                    "at::addGlobalCallback(at::RecordFunctionCallback)", "at::clearCallbacks()",
                    "c10::impl::tls_set_dispatch_key_included(c10::DispatchKey, bool)",
                    "at::_ops::empty_like_then_sum::call(at::Tensor const&)"]:
            self.assertEqual(elfimports.judge_symbol(bad, "strict")[0], "EXTENSION_IMPORT", bad)
        for ok in ["cudaLaunchKernel", "c10::detail::torchCheckFail(char const*, char const*, unsigned int, char const*)",
                   "PyTuple_New", "memcpy@GLIBC_2.14", "__cudaRegisterFunction",
                   "c10::cuda::getCurrentCUDAStream(signed char)", "__cudaLaunchKernel", "__cudaGetKernel"]:
            self.assertIsNone(elfimports.judge_symbol(ok, "strict")[0], ok)

    def test_the_c_and_cpp_runtime_is_an_allowlist(self):
        # wall2 red team: the loader, signals and timers, and libstdc++'s own file, thread and filesystem
        # wrappers passed a denylist of libc names
        for bad in ["dl_iterate_phdr@GLIBC_2.2.5", "sigaction", "setitimer", "write", "std::thread::_M_start_thread",
                    "std::basic_ifstream<char, std::char_traits<char> >::basic_ifstream",
                    "std::filesystem::remove", "vtable for std::basic_ifstream<char, std::char_traits<char> >",
                    "PyMemoryView_FromMemory", "PyCapsule_Import"]:
            self.assertEqual(elfimports.judge_symbol(bad, "strict")[0], "EXTENSION_IMPORT", bad)
        for ok in ["expf", "__isoc23_strtol", "operator new(unsigned long)", "typeinfo for std::runtime_error",
                   # GCC 13's <iostream> (the H200's compiler; torch/extension.h includes it)
                   "std::ios_base_library_init()",
                   "std::__cxx11::basic_ostringstream<char, std::char_traits<char>, std::allocator<char> >::str",
                   "cudaEventRecord", "cudaStreamIsCapturing", "c10::cuda::setCurrentCUDAStream",
                   "vtable for torch::autograd::AutogradMeta", "std::_Rb_tree_insert_and_rebalance"]:
            self.assertIsNone(elfimports.judge_symbol(ok, "strict")[0], ok)
        for glue in ["PyEval_GetBuiltins", "PyObject_GetAttrString", "PyObject_Call", "PyObject_Vectorcall"]:
            self.assertEqual(elfimports.judge_symbol(glue, "strict")[0], "GLUE_ONLY", glue)

    def test_a_template_return_type_does_not_hide_the_namespace(self):
        # `void at::native::k<float>(...)` began with "void": no torch rule matched it and it passed
        mangled = "_ZN2at6native6kernelIfEEvRKNS_6TensorE"
        self.assertEqual(elfimports.demangle([mangled], qualified=True), ["at::native::kernel<float>"])
        self.assertEqual(elfimports.judge_symbol("at::native::kernel<float>", "strict")[0], "EXTENSION_IMPORT")

    def test_by_name_calls_and_raw_syscalls_are_judged_where_they_are(self):
        src = textwrap.dedent("""
            #include <Python.h>
            extern "C" PyObject* answer_calls(PyObject* m) { return PyObject_GetAttrString(m, "exp"); }
            extern "C" { void* volatile answer_ptr = (void*)&PyEval_GetBuiltins; }
            extern "C" long answer_syscall(long nr) {
              long r; asm volatile("syscall" : "=a"(r) : "a"(nr) : "rcx", "r11"); return r; }
        """)
        d = tempfile.mkdtemp(prefix="sieve-elf-test-")
        try:
            with open(os.path.join(d, "m.cpp"), "w") as f:
                f.write(src)
            subprocess.run(["g++", "-O1", "-shared", "-fPIC", "-I", sysconfig.get_paths()["include"],
                            os.path.join(d, "m.cpp"), "-o", os.path.join(d, "m.so")], check=True, capture_output=True)
            found = elfimports.judge(os.path.join(d, "m.so"))
        finally:
            shutil.rmtree(d, ignore_errors=True)
        msgs = {sym: msg for code, msg, sym in found if code == "EXTENSION_IMPORT"}
        self.assertIn("answer_calls", msgs.get("PyObject_GetAttrString", ""), found)
        self.assertIn("answer_syscall", msgs.get("syscall", ""), found)
        self.assertIn("stores the address", msgs.get("PyEval_GetBuiltins", ""), found)


if __name__ == "__main__":
    unittest.main()
