"""Writes builder_manifest.json: built-module cases for tests/worker/builder_redteam.py (the import allowlist,
elfimports.py). Each hostile case imports nothing the allowlist refuses by name yet reaches what the
allowlist is there to refuse."""
import json
import os

PHDR = r"""
#include <torch/extension.h>
#include <link.h>
#include <cstring>
using Fn = at::Tensor& (*)(at::Tensor&, const at::Tensor&, int64_t, bool);
struct Want { const char* sym; void* addr; };
static int visit(struct dl_phdr_info* info, size_t, void* data) {
    Want* w = static_cast<Want*>(data);
    if (!info->dlpi_name || !std::strstr(info->dlpi_name, "libtorch_cpu.so")) return 0;
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        if (info->dlpi_phdr[i].p_type != PT_DYNAMIC) continue;
        auto* d = reinterpret_cast<ElfW(Dyn)*>(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
        const ElfW(Sym)* syms = nullptr; const char* strs = nullptr;
        for (; d->d_tag != DT_NULL; ++d) {
            if (d->d_tag == DT_SYMTAB) syms = reinterpret_cast<const ElfW(Sym)*>(d->d_un.d_ptr);
            if (d->d_tag == DT_STRTAB) strs = reinterpret_cast<const char*>(d->d_un.d_ptr);
        }
        for (size_t k = 1; syms && strs && k < 200000; ++k)
            if (std::strcmp(strs + syms[k].st_name, w->sym) == 0) { w->addr = (void*)(info->dlpi_addr + syms[k].st_value); return 1; }
    }
    return 0;
}
torch::Tensor run(torch::Tensor x) {
    Want w{"_ZN2at3cpu12_softmax_outERNS_6TensorERKS1_lb", nullptr};
    dl_iterate_phdr(visit, &w);
    auto out = torch::empty_like(x);
    reinterpret_cast<Fn>(w.addr)(out, x, x.dim() - 1, false);
    return out;
}
"""

STD_THREAD = r"""
#include <torch/extension.h>
#include <thread>
torch::Tensor run(torch::Tensor x) {
    auto y = torch::empty_like(x);
    float* a = x.data_ptr<float>(); float* b = y.data_ptr<float>(); int64_t n = x.numel();
    std::thread t([=] { for (int64_t i = 0; i < n; ++i) b[i] = a[i]; });
    t.detach();
    return y;
}
"""

IFSTREAM = r"""
#include <torch/extension.h>
#include <fstream>
#include <string>
std::string run(std::string path) {
    std::ifstream f(path);
    std::string line;
    std::getline(f, line);
    return line;
}
"""

FS_REMOVE = r"""
#include <torch/extension.h>
#include <filesystem>
bool run(std::string path) { return std::filesystem::remove(path); }
"""

ASM_SYSCALL = r"""
#include <torch/extension.h>
long run(long nr, long a, long b, long c) {
    long ret;
    register long r10 asm("r10") = 0;
    asm volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10) : "rcx", "r11", "memory");
    return ret;
}
"""

BUILTINS_IMPORT = r"""
#include <torch/extension.h>
#include <Python.h>
py::object run(std::string mod) {
    PyObject* builtins = PyEval_GetBuiltins();
    PyObject* imp = PyDict_GetItemString(builtins, "__import__");
    PyObject* name = PyUnicode_FromString(mod.c_str());
    PyObject* m = PyObject_CallFunctionObjArgs(imp, name, nullptr);
    if (!m) throw py::error_already_set();
    return py::reinterpret_steal<py::object>(m);
}
"""

GETATTR_CALL_TORCH = r"""
#include <torch/extension.h>
#include <Python.h>
py::object run(py::object torch_mod, py::object x) {
    PyObject* f = PyObject_GetAttrString(torch_mod.ptr(), "softmax");
    PyObject* dim = PyLong_FromLong(-1);
    PyObject* r = PyObject_CallFunctionObjArgs(f, x.ptr(), dim, nullptr);
    if (!r) throw py::error_already_set();
    return py::reinterpret_steal<py::object>(r);
}
"""

SIGACTION = r"""
#include <torch/extension.h>
#include <csignal>
#include <sys/time.h>
static float* g_src; static float* g_dst; static long g_n;
static void on_alarm(int) { for (long i = 0; i < g_n; ++i) g_dst[i] = g_src[i]; }
void run(torch::Tensor src, torch::Tensor dst) {
    g_src = src.data_ptr<float>(); g_dst = dst.data_ptr<float>(); g_n = src.numel();
    struct sigaction sa {}; sa.sa_handler = on_alarm; sigaction(SIGALRM, &sa, nullptr);
    struct itimerval it {}; it.it_value.tv_usec = 1000; setitimer(ITIMER_REAL, &it, nullptr);
}
"""

LEGIT_LOOP = r"""
#include <torch/extension.h>
#include <cmath>
torch::Tensor run(torch::Tensor x) {
    TORCH_CHECK(x.is_contiguous() && x.scalar_type() == torch::kFloat, "float contiguous");
    auto y = torch::empty_like(x); const float* a = x.data_ptr<float>(); float* b = y.data_ptr<float>();
    for (int64_t i = 0; i < x.numel(); ++i) b[i] = std::exp(a[i]);
    return y;
}
"""


def case(name, src, why, expect="EXTENSION_IMPORT", symbol=None, functions=("run",)):
    c = {"name": f"w2_{name}", "expect": expect, "why": why,
         "request": {"name": f"w2_{name}", "cpp_sources": [src], "functions": list(functions), "with_cuda": False}}
    if symbol:
        c["symbol"] = symbol
    return c


CASES = [
    case("dl_iterate_phdr_at_cpu", PHDR, "finds at::cpu::_softmax_out through dl_iterate_phdr and the in-memory "
         ".dynsym (dlsym is refused, dl_iterate_phdr is not) and calls ATen's CPU kernel by pointer, around the "
         "dispatcher", symbol="dl_iterate_phdr"),
    case("std_thread", STD_THREAD, "pthread_create is refused but std::thread reaches it inside libstdc++ "
         "(std::thread::_M_start_thread is what the module imports)", symbol="thread"),
    case("ifstream_open", IFSTREAM, "open/fopen are refused but std::ifstream opens the file inside libstdc++ "
         "(the candidate's landlock is then the only wall)", symbol="basic_ifstream"),
    case("filesystem_remove", FS_REMOVE, "unlink is refused but std::filesystem::remove unlinks inside libstdc++",
         symbol="filesystem"),
    case("asm_syscall", ASM_SYSCALL, "an inline `syscall` instruction imports nothing: every refused libc entry "
         "(socket, execve, mprotect...) is reachable; seccomp is the only wall", symbol="syscall"),
    case("builtins_import", BUILTINS_IMPORT, "PyEval_GetBuiltins (allowed) + PyDict_GetItemString + "
         "PyObject_CallFunctionObjArgs is __import__ by another name: PyImport_* is refused, this is not",
         symbol="PyEval_GetBuiltins"),
    case("getattr_call_torch", GETATTR_CALL_TORCH, "calling objects by name (PyObject_GetAttrString passes the "
         "PyObject_GetAttr prefix): the module calls torch.softmax on a handed-in torch module (the runtime wall "
         "still sees the op at run time)", symbol="PyObject_GetAttrString"),
    case("sigaction_timer", SIGACTION, "a SIGALRM handler armed with sigaction/setitimer runs the module's host "
         "code asynchronously, after the window that called it has closed", symbol="sigaction"),
    case("legit_exp_loop", LEGIT_LOOP, "a loop over data pointers calling std::exp", expect="PASS"),
]

# what builds and passes the allowlist today (CPU run of builder_redteam.py; it has no known_gap key itself)
KNOWN_GAPS = {
    "w2_dl_iterate_phdr_at_cpu": "dl_iterate_phdr is not in LIBC_BAD: a symbol lookup without dlsym",
    "w2_std_thread": "std::thread imports libstdc++'s _M_start_thread, not pthread_create",
    "w2_ifstream_open": "std::ifstream opens inside libstdc++: open/fopen are never imported",
    "w2_filesystem_remove": "std::filesystem::remove unlinks inside libstdc++",
    "w2_asm_syscall": "an inline syscall instruction imports nothing",
    "w2_builtins_import": "PyEval_GetBuiltins is on PY_OK: __import__ through the builtins dict",
    "w2_getattr_call_torch": "PyObject_GetAttrString passes the PyObject_GetAttr prefix (calling by name)",
    "w2_sigaction_timer": "sigaction/setitimer are not refused",
}

if __name__ == "__main__":
    for c in CASES:
        if c["name"] in KNOWN_GAPS:
            c["known_gap"] = KNOWN_GAPS[c["name"]]
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "builder_manifest.json")
    with open(path, "w") as f:
        json.dump({"cases": CASES}, f, indent=1)
        f.write("\n")
    print(f"{len(CASES)} cases -> {path}")
