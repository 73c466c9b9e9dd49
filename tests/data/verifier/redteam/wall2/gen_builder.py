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

# a KernelBench-style CUDA wrapper: AT_DISPATCH, OptionalCUDAGuard (CUDA events, stream capture queries),
# TORCH_CHECK with formatted messages, a string stream, several outputs, an optional argument
KB_CUDA_DECL = r"""
#include <vector>
torch::Tensor softmax_cuda(torch::Tensor x);
std::vector<torch::Tensor> two_out(torch::Tensor x, double alpha);
torch::Tensor gemm_tiled(torch::Tensor a, torch::Tensor b, c10::optional<torch::Tensor> bias);
"""
KB_CUDA = r"""
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_fp16.h>
#include <vector>
#include <sstream>
#define CHECK_CUDA(x) TORCH_CHECK(x.device().is_cuda(), #x " must be a CUDA tensor")
#define CHECK_CONTIGUOUS(x) TORCH_CHECK(x.is_contiguous(), #x " must be contiguous")
#define CHECK_INPUT(x) CHECK_CUDA(x); CHECK_CONTIGUOUS(x)
template <typename scalar_t>
__global__ void softmax_kernel(const scalar_t* __restrict__ x, scalar_t* __restrict__ y, int cols) {
  extern __shared__ float sh[]; int r = blockIdx.x; float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, (float)x[r * cols + c]);
  sh[threadIdx.x] = m; __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) { if (threadIdx.x < s) sh[threadIdx.x] = fmaxf(sh[threadIdx.x], sh[threadIdx.x + s]); __syncthreads(); }
  m = sh[0]; __syncthreads(); float acc = 0;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) acc += __expf((float)x[r * cols + c] - m);
  sh[threadIdx.x] = acc; __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) { if (threadIdx.x < s) sh[threadIdx.x] += sh[threadIdx.x + s]; __syncthreads(); }
  for (int c = threadIdx.x; c < cols; c += blockDim.x) y[r * cols + c] = (scalar_t)(__expf((float)x[r * cols + c] - m) / sh[0]); }
torch::Tensor softmax_cuda(torch::Tensor x) {
  CHECK_INPUT(x); const at::cuda::OptionalCUDAGuard guard(device_of(x));
  auto y = torch::empty_like(x); int rows = x.size(0), cols = x.size(1); int threads = 256;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(x.scalar_type(), "softmax_cuda", ([&] {
    softmax_kernel<scalar_t><<<rows, threads, threads * sizeof(float), stream>>>(x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), cols); }));
  C10_CUDA_KERNEL_LAUNCH_CHECK(); return y; }
__global__ void axpy(const float* x, float* a, float* b, float alpha, int64_t n) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; if (i < n) { a[i] = alpha * x[i]; b[i] = x[i] - a[i]; } }
std::vector<torch::Tensor> two_out(torch::Tensor x, double alpha) {
  TORCH_CHECK(x.scalar_type() == at::kFloat, "float only, got ", x.scalar_type());
  auto opts = torch::TensorOptions().dtype(torch::kFloat32).device(x.device());
  auto a = torch::empty(x.sizes(), opts); auto b = torch::zeros_like(x); int64_t n = x.numel();
  axpy<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(x.data_ptr<float>(), a.data_ptr<float>(), b.data_ptr<float>(), (float)alpha, n);
  cudaError_t err = cudaGetLastError(); if (err != cudaSuccess) { std::ostringstream os; os << "launch failed: " << cudaGetErrorString(err); throw std::runtime_error(os.str()); }
  return {a, b.view({-1}), a.reshape(x.sizes()).transpose(0, 1).contiguous()}; }
#define TILE 16
__global__ void gemm_k(const float* A, const float* B, const float* bias, float* C, int M, int N, int K) {
  __shared__ float As[TILE][TILE]; __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x; float acc = 0;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    As[threadIdx.y][threadIdx.x] = (row < M && t * TILE + threadIdx.x < K) ? A[row * K + t * TILE + threadIdx.x] : 0.f;
    Bs[threadIdx.y][threadIdx.x] = (col < N && t * TILE + threadIdx.y < K) ? B[(t * TILE + threadIdx.y) * N + col] : 0.f;
    __syncthreads(); for (int k = 0; k < TILE; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x]; __syncthreads(); }
  if (row < M && col < N) C[row * N + col] = acc + (bias ? bias[col] : 0.f); }
torch::Tensor gemm_tiled(torch::Tensor a, torch::Tensor b, c10::optional<torch::Tensor> bias) {
  CHECK_INPUT(a); CHECK_INPUT(b); int M = a.size(0), K = a.size(1), N = b.size(1);
  auto c = torch::empty({M, N}, a.options()); dim3 block(TILE, TILE), grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  const float* bp = bias.has_value() ? bias->data_ptr<float>() : nullptr;
  gemm_k<<<grid, block>>>(a.data_ptr<float>(), b.data_ptr<float>(), bp, c.data_ptr<float>(), M, N, K);
  C10_CUDA_CHECK(cudaGetLastError()); return c; }
"""
# a CPU extension with its own PYBIND11_MODULE: a py::class_ with a constructor, a method, a property and a
# static method, py::arg defaults, an optional, a tuple, a static map under a mutex, std::sort
CPP_STYLES = r"""
#include <torch/extension.h>
#include <cmath>
#include <tuple>
#include <unordered_map>
#include <mutex>
#include <algorithm>
#include <vector>
#include <string>
struct Scaler {
  double s; explicit Scaler(double s_) : s(s_) {}
  torch::Tensor run(torch::Tensor x) const { auto y = torch::empty_like(x); auto* a = x.data_ptr<float>(); auto* b = y.data_ptr<float>();
    for (int64_t i = 0; i < x.numel(); ++i) b[i] = (float)(a[i] * s); return y; }
  static Scaler unit() { return Scaler(1.0); } };
static std::unordered_map<std::string, int64_t> g_calls; static std::mutex g_mu;
std::tuple<torch::Tensor, torch::Tensor> stats(torch::Tensor x, int64_t dim = -1, c10::optional<double> eps = c10::nullopt) {
  { std::lock_guard<std::mutex> lk(g_mu); g_calls["stats" + std::to_string(dim)]++; }
  TORCH_CHECK(x.dim() == 2, "2-d, got ", x.dim(), " dims for ", x.sizes());
  auto xc = x.contiguous(); auto mean = torch::zeros({xc.size(0)}, xc.options()); auto var = torch::empty({xc.size(0)}, xc.options());
  const float* a = xc.data_ptr<float>(); float* m = mean.data_ptr<float>(); float* v = var.data_ptr<float>(); int64_t C = xc.size(1);
  std::vector<float> row(C);
  for (int64_t r = 0; r < xc.size(0); ++r) { std::copy(a + r * C, a + (r + 1) * C, row.begin()); std::sort(row.begin(), row.end());
    double s = 0, q = 0; for (float f : row) { s += f; q += (double)f * f; } m[r] = s / C; v[r] = std::sqrt(std::max(0.0, q / C - m[r] * m[r]) + eps.value_or(1e-5)); }
  return {mean, var}; }
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.doc() = "legit styles";
  py::class_<Scaler>(m, "Scaler").def(py::init<double>(), py::arg("s") = 2.0).def("run", &Scaler::run).def_readwrite("s", &Scaler::s).def_static("unit", &Scaler::unit);
  m.def("stats", &stats, "row stats", py::arg("x"), py::arg("dim") = -1, py::arg("eps") = py::none()); }
"""


def case(name, src, why, expect="EXTENSION_IMPORT", symbol=None, functions=("run",), cuda=None, cflags=()):
    c = {"name": f"w2_{name}", "expect": expect, "why": why,
         "request": {"name": f"w2_{name}", "cpp_sources": [src], "functions": list(functions), "with_cuda": False}}
    if cflags:
        c["request"]["extra_cflags"] = list(cflags)
    if not functions:
        del c["request"]["functions"]
    if cuda is not None:
        c["request"].update({"cuda_sources": [cuda], "extra_cuda_cflags": ["-O3", "--use_fast_math"]})
        del c["request"]["with_cuda"]
        c["cuda"] = True
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
    case("legit_cpp_styles", CPP_STYLES, "a py::class_ binding (PyObject_Vectorcall, pybind11's getattr), "
         "py::arg defaults, optional, tuple, a mutex-guarded map, std::sort", expect="PASS", functions=()),
    case("legit_cpp_styles_o3", CPP_STYLES, "the same at -O3: inlining moves pybind11's by-name calls into the "
         "module's init (a list of exact pybind11 functions rejected it)", expect="PASS", functions=(),
         cflags=("-O3",)),
    case("legit_kb_cuda_styles", KB_CUDA_DECL, "KernelBench-style CUDA wrappers with OptionalCUDAGuard (CUDA "
         "events, stream capture queries), AT_DISPATCH_FLOATING_TYPES_AND_HALF, a string stream, an optional",
         expect="PASS", functions=("softmax_cuda", "two_out", "gemm_tiled"), cuda=KB_CUDA),
]

# what builds and passes the allowlist today (CPU run of builder_redteam.py; it has no known_gap key itself):
# none since the C/C++ runtime became an allowlist and Python's by-name calls are judged where they are
KNOWN_GAPS = {}

if __name__ == "__main__":
    for c in CASES:
        if c["name"] in KNOWN_GAPS:
            c["known_gap"] = KNOWN_GAPS[c["name"]]
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "builder_manifest.json")
    with open(path, "w") as f:
        json.dump({"cases": CASES}, f, indent=1)
        f.write("\n")
    print(f"{len(CASES)} cases -> {path}")
