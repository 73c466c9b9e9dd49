// The runtime wall (docs/VERIFIER.md, "The runtime wall"): a trusted CPython extension, built by the worker
// with the compiler directly and loaded into every candidate before any of the answer is, that sees every
// ATen operator the dispatcher runs (a global RecordFunction callback: the dispatcher runs it for every
// observed op when one exists, whether Python or C++ called the op) and judges the answer's ones against a
// policy. Its state lives in this file's statics, which the answer's Python cannot reach; what it found goes
// to the worker as one JSON line per armed window, written here with write(2) on the result pipe.
#include <ATen/PythonTorchFunctionTLS.h>
#include <ATen/ops/empty.h>
#include <ATen/record_function.h>
#include <Python.h>
#include <c10/core/impl/TorchDispatchModeTLS.h>
#include <frameobject.h>

#include <dlfcn.h>
#include <execinfo.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <unordered_set>
#include <utility>
#include <vector>

namespace {

enum Phase { kFree = 0, kHarness = 1, kForward = 2 };

struct Violation
{
    std::string op, where, phase;
    bool other_thread;
};

// Everything the wall knows; the answer's Python holds no reference to any of it.
std::mutex g_mu;
std::atomic<int> g_phase{kFree};
std::atomic<bool> g_ablate{false};
bool g_ready = false, g_kernelbench = false, g_interpreted = false;
int g_fd = -1;
dev_t g_fd_dev = 0;
ino_t g_fd_ino = 0;
std::string g_answer, g_triton_dir;
std::vector<std::string> g_ext_dirs;
std::thread::id g_main;
std::unordered_set<std::string> g_allowed, g_core;
at::CallbackHandle g_handle = 0;
unsigned long g_serial = 0, g_bypass = 0, g_cost_ns = 0;
std::atomic<unsigned long> g_ops{0}, g_canary{0};
std::atomic<bool> g_canary_wait{false};
std::vector<Violation> g_violations;
unsigned long g_violation_count = 0;
std::string g_tampered;
std::vector<PyObject *> g_snap; // (dict, key, value) triples, strong references
PyObject *g_poison = nullptr;   // the harness's ablation callback
std::string g_native;           // the first raw-memory or foreign-call primitive the answer reached for
std::string g_native_harness;   // the same, reached with no frame of the answer's on the stack (torch, triton)
thread_local int t_core_depth = 0;
std::vector<PyObject *> g_fsnap; // (function, code, defaults, kwdefaults) of snapshotted functions
std::vector<PyObject *> g_csnap; // (cell, contents) of their closures
std::vector<std::pair<PyObject *, Py_ssize_t>> g_dsnap; // dicts that must keep their size (no key added)

// Launch accounting and the ablation probe of Triton answers (hooks.py routes JITFunction.run and
// InterpretedFunction.run here): what the verdict reads is kept in these statics, never in a Python object.
using Range = std::pair<unsigned long, unsigned long>;
PyObject *g_run_cls[2] = {nullptr, nullptr};            // JITFunction, InterpretedFunction (exact types)
PyObject *g_run_orig[2] = {nullptr, nullptr};           // their original run functions
PyObject *g_run_code[2] = {nullptr, nullptr};           // and the code those had when they were handed over
PyObject *g_fill = nullptr, *g_fill_code = nullptr;     // fill(args, kwargs, poison, protect): the probe's launch
PyObject *g_ranges = nullptr, *g_ranges_code = nullptr; // ranges(args, kwargs) -> [(lo, hi)]
unsigned long g_launches = 0, g_launch_ns = 0, g_forward_ns = 0;
std::set<std::string> g_names;
std::vector<Range> g_launch_ranges; // every launch's tensor arguments (the output overlap check)
std::vector<Range> g_protect;       // storage the probe leaves alone (inputs, parameters), set for every call
bool g_armed = false;               // arm() was called for the next window
bool g_next_probe = false, g_probe = false, g_last_probe = false, g_probe_told = true;
std::chrono::steady_clock::time_point g_window_t0;
double g_next_poison = 0, g_poison_value = 0;
bool g_ablate_ext = false;        // the probe also poisons extension functions (CUDA answers)
std::atomic<int> g_in_launch{0};  // an interpreted launch of the answer's kernel is running (on the main thread)
PyObject *g_cur_ranges = nullptr; // that launch's tensor ranges (the interpreter's bounds check)

const char *kStrict[] = {"aten::empty",
                         "aten::empty_like",
                         "aten::empty_strided",
                         "aten::new_empty",
                         "aten::new_empty_strided",
                         "aten::zeros",
                         "aten::zeros_like",
                         "aten::new_zeros",
                         "aten::ones",
                         "aten::ones_like",
                         "aten::new_ones",
                         "aten::full",
                         "aten::full_like",
                         "aten::new_full",
                         "aten::fill_",
                         "aten::zero_",
                         "aten::resize_",
                         "aten::copy_",
                         "aten::clone",
                         "aten::contiguous",
                         "aten::to",
                         "aten::type_as",
                         "aten::_to_copy",
                         "aten::view",
                         "aten::view_as",
                         "aten::_unsafe_view",
                         "aten::as_strided",
                         "aten::as_strided_",
                         "aten::reshape",
                         "aten::reshape_as",
                         "aten::_reshape_alias",
                         "aten::flatten",
                         "aten::unflatten",
                         "aten::unsqueeze",
                         "aten::unsqueeze_",
                         "aten::squeeze",
                         "aten::squeeze_",
                         "aten::permute",
                         "aten::transpose",
                         "aten::transpose_",
                         "aten::t",
                         "aten::t_",
                         "aten::expand",
                         "aten::expand_as",
                         "aten::slice",
                         "aten::select",
                         "aten::narrow",
                         "aten::split",
                         "aten::split_with_sizes",
                         "aten::chunk",
                         "aten::unbind",
                         "aten::movedim",
                         "aten::swapaxes",
                         "aten::diagonal",
                         "aten::detach",
                         "aten::detach_",
                         "aten::alias",
                         "aten::lift_fresh",
                         "aten::size",
                         "aten::stride",
                         "aten::sym_size",
                         "aten::sym_stride",
                         "aten::sym_numel",
                         "aten::dim",
                         "aten::is_contiguous",
                         "aten::set_",
                         "aten::record_stream",
                         "aten::view_as_real",
                         "aten::view_as_complex",
                         "aten::resolve_conj",
                         "aten::resolve_neg",
                         "aten::requires_grad_",
                         "aten::_has_compatible_shallow_copy_type",
                         "aten::numpy_T",
                         "aten::mT",
                         "aten::is_same_size"};
const char *kCore[] = {"aten::mm",
                       "aten::addmm",
                       "aten::bmm",
                       "aten::baddbmm",
                       "aten::matmul",
                       "aten::linear",
                       "aten::conv1d",
                       "aten::conv2d",
                       "aten::conv3d",
                       "aten::convolution",
                       "aten::_convolution",
                       "aten::conv_transpose1d",
                       "aten::conv_transpose2d",
                       "aten::conv_transpose3d",
                       "aten::scaled_dot_product_attention",
                       "aten::einsum",
                       "aten::addmv",
                       "aten::mv",
                       "aten::dot"};

bool under(const std::string &path, const std::string &dir)
{
    return !dir.empty() && path.compare(0, dir.size(), dir) == 0;
}

std::string json_escape(const std::string &s)
{
    std::string out;
    for (char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            out += ' ';
        } else {
            out += c;
        }
    }
    return out;
}

void tamper(const std::string &why)
{
    if (g_tampered.empty())
        g_tampered = why;
}

// Visits this thread's Python frames, innermost first, at most max_depth of them, until visit(frame, code,
// file, depth) returns false; file is nullptr where the code's file name is no UTF-8 string. With the GIL.
template <class Visit> void for_each_frame(int max_depth, Visit visit)
{
    PyFrameObject *f = PyThreadState_GetFrame(PyThreadState_Get());
    for (int depth = 0; f != nullptr && depth < max_depth; ++depth) {
        PyCodeObject *code = PyFrame_GetCode(f);
        const char *file = PyUnicode_AsUTF8(code->co_filename);
        PyErr_Clear();
        const bool more = visit(f, code, file, depth);
        Py_DECREF(code);
        if (!more)
            break;
        PyFrameObject *back = PyFrame_GetBack(f);
        Py_DECREF(f);
        f = back;
    }
    Py_XDECREF(f);
}

// The answer's place in the Python stack of this thread: "file:line" of the innermost frame in the answer's
// file, "" when none. any_answer tells whether such a frame exists at all (the harness phase's question).
std::string python_where(bool *triton_innermost)
{
    std::string where;
    if (!Py_IsInitialized())
        return where;
    PyGILState_STATE st = PyGILState_Ensure();
    for_each_frame(200, [&](PyFrameObject *f, PyCodeObject *, const char *file, int depth) {
        if (file == nullptr)
            return true;
        if (depth == 0 && triton_innermost != nullptr)
            *triton_innermost = under(file, g_triton_dir);
        if (g_answer != file)
            return true;
        where = "line " + std::to_string(PyFrame_GetLineNumber(f));
        return false;
    });
    PyGILState_Release(st);
    return where;
}

// The innermost Python frames, "file:line" (the file's last two path parts), innermost first: where torch or
// triton reached a refusal with no frame of the answer's on the stack (the worker logs it with the retry).
std::string python_trail(int frames)
{
    std::string trail;
    if (!Py_IsInitialized())
        return trail;
    PyGILState_STATE st = PyGILState_Ensure();
    for_each_frame(frames, [&](PyFrameObject *f, PyCodeObject *, const char *file, int) {
        std::string name = file != nullptr ? file : "?";
        size_t cut = name.rfind('/');
        if (cut != std::string::npos && cut > 0)
            cut = name.rfind('/', cut - 1);
        trail += (trail.empty() ? "" : " < ") + (cut == std::string::npos ? name : name.substr(cut + 1)) + ":" +
                 std::to_string(PyFrame_GetLineNumber(f));
        return true;
    });
    PyGILState_Release(st);
    return trail;
}

// The first native frame in one of the answer's extensions: its symbol (or object and offset).
std::string native_where()
{
    void *frames[64];
    int n = backtrace(frames, 64);
    for (int i = 0; i < n; ++i) {
        Dl_info info{};
        if (dladdr(frames[i], &info) == 0 || info.dli_fname == nullptr)
            continue;
        for (const auto &d : g_ext_dirs) {
            if (!under(info.dli_fname, d))
                continue;
            std::string base = info.dli_fname;
            base = base.substr(base.rfind('/') + 1);
            if (info.dli_sname != nullptr)
                return std::string(info.dli_sname) + " in " + base;
            char buf[64];
            snprintf(buf, sizeof buf, "+%#lx",
                     static_cast<unsigned long>(static_cast<char *>(frames[i]) - static_cast<char *>(info.dli_fbase)));
            return base + buf;
        }
    }
    return "";
}

void record(const char *op, int phase, bool other, const std::string &where)
{
    ++g_violation_count;
    if (g_violations.size() < 4)
        g_violations.push_back({op, where, phase == kForward ? "forward" : "outside the forward", other});
}

bool stack_trusted(const std::unordered_set<PyObject *> *innermost);
std::string borrowed_frame();

std::unique_ptr<at::ObserverContext> on_start(const at::RecordFunction &fn)
{
    int phase = g_phase.load(std::memory_order_relaxed);
    const char *name = fn.name();
    if (g_canary_wait.load() && std::strcmp(name, "aten::empty") == 0 && std::this_thread::get_id() == g_main) {
        ++g_canary;
        g_canary_wait.store(false);
        return nullptr;
    }
    if (phase == kFree)
        return nullptr;
    // an operator has a namespace (aten::, prims::, an answer's own mylib::); a name without one is a scope
    // label (an autograd.Function's apply, a Python dispatch mode), not compute: what runs inside it is judged
    if (std::strstr(name, "::") == nullptr)
        return nullptr;
    bool other = std::this_thread::get_id() != g_main;
    bool core = g_kernelbench && g_core.count(name) > 0;
    if (t_core_depth > 0) { // a kernelbench core op's own nested calls
        if (core)
            ++t_core_depth;
        return nullptr;
    }
    if (core)
        ++t_core_depth;
    if (phase == kForward)
        ++g_ops;
    if (core || g_allowed.count(name) > 0)
        return nullptr;
    // Frames are read without holding g_mu: the GIL is taken there, and a thread holding the GIL may be
    // waiting for g_mu in its own op.
    std::string where;
    if (phase == kHarness && !other) {
        // the harness's own ops are not the answer's; answer code running now (a __del__, a patched function, a
        // gc callback) is, and so is any op it reaches from its extension
        where = python_where(nullptr);
        if (where.empty()) {
            // no line of the answer's file: the harness's own op only where every frame runs code loaded before
            // the answer (w_trust). Code the answer compiled under a borrowed file name (torch's module.py) that
            // the harness calls (its model's parameters()) computed there unseen (redteam/wall2
            // h_borrowed_filename_harness_phase_compute); a module imported after the wall is no code of the
            // harness's either. Neither is the answer's line for certain: the job ends as the harness's fault
            // (retried, then UNVERIFIABLE RAW_MEMORY_HARNESS), never a PASS.
            PyGILState_STATE st = PyGILState_Ensure(); // the op's binding released it
            const bool trusted = stack_trusted(nullptr);
            const std::string borrowed = trusted ? "" : borrowed_frame();
            PyGILState_Release(st);
            if (trusted)
                return nullptr;
            if (!borrowed.empty()) { // the answer's code under a borrowed name: its op
                std::lock_guard<std::mutex> lock(g_mu);
                record(name, phase, false, "code the answer compiled under the name " + borrowed);
                return nullptr;
            }
            const std::string trail = python_trail(8);
            std::lock_guard<std::mutex> lock(g_mu);
            if (g_native_harness.empty())
                g_native_harness =
                    std::string(name) + " in the harness's phase from code loaded after the wall at " + trail;
            return nullptr;
        }
    } else {
        bool triton_first = false;
        where = other ? "" : python_where(&triton_first);
        if (where.empty() && triton_first && g_interpreted && !other && g_in_launch.load() > 0)
            return nullptr; // TRITON_INTERPRET's own copies, while the launch hook runs an interpreted launch
        if (where.empty() || other) {
            std::string native = native_where();
            if (!native.empty())
                where = native;
        }
        if (where.empty())
            where = "no line of the answer on the stack";
    }
    std::lock_guard<std::mutex> lock(g_mu);
    record(name, phase, other, where);
    return nullptr;
}

void on_end(const at::RecordFunction &fn, at::ObserverContext *)
{
    if (t_core_depth > 0 && g_core.count(fn.name()) > 0)
        --t_core_depth;
}

bool fd_is_ours()
{
    struct stat st
    {
    };
    return g_fd >= 0 && fstat(g_fd, &st) == 0 && st.st_dev == g_fd_dev && st.st_ino == g_fd_ino;
}

bool snapshot_holds(std::string *what)
{
    for (size_t i = 0; i + 2 < g_snap.size(); i += 3) {
        PyObject *now = PyDict_GetItemWithError(g_snap[i], g_snap[i + 1]);
        if (now != g_snap[i + 2]) {
            PyErr_Clear();
            const char *k = PyUnicode_Check(g_snap[i + 1]) ? PyUnicode_AsUTF8(g_snap[i + 1]) : "?";
            *what = std::string("a torch or harness attribute was replaced: ") + (k ? k : "?");
            PyErr_Clear();
            return false;
        }
    }
    for (size_t i = 0; i + 3 < g_fsnap.size(); i += 4) {
        auto *f = reinterpret_cast<PyFunctionObject *>(g_fsnap[i]);
        if (f->func_code != g_fsnap[i + 1] || f->func_defaults != g_fsnap[i + 2] ||
            f->func_kwdefaults != g_fsnap[i + 3]) {
            PyObject *n = f->func_qualname;
            const char *k = n != nullptr && PyUnicode_Check(n) ? PyUnicode_AsUTF8(n) : "?";
            *what = std::string("the code of a harness function was replaced: ") + (k ? k : "?");
            PyErr_Clear();
            return false;
        }
    }
    for (const auto &[d, n] : g_dsnap) {
        if (PyDict_Size(d) != n) {
            *what = "an attribute was added to a harness class";
            return false;
        }
    }
    for (size_t i = 0; i + 1 < g_csnap.size(); i += 2) {
        if (PyCell_GET(g_csnap[i]) != g_csnap[i + 1]) {
            *what = "a variable a harness function closes over was replaced";
            return false;
        }
    }
    return true;
}

// A live check that the callback still sees ops on this thread: one aten::empty must reach it.
bool canary()
{
    unsigned long before = g_canary.load();
    g_canary_wait.store(true);
    {
        auto t = at::empty({0});
    }
    g_canary_wait.store(false);
    return g_canary.load() == before + 1 && at::isRecordFunctionEnabled() && at::hasGlobalCallbacks();
}

void write_report(const std::string &line)
{
    if (!fd_is_ours()) {
        tamper("the report pipe was closed or replaced");
        return; // the worker sees the report missing
    }
    std::string data = line + "\n";
    const char *p = data.data();
    size_t left = data.size();
    while (left > 0) {
        ssize_t n = write(g_fd, p, left);
        if (n <= 0)
            return;
        p += n;
        left -= static_cast<size_t>(n);
    }
}

std::string report_json(const char *kind)
{
    std::string s = std::string("{\"t\": \"wall\", \"kind\": \"") + kind +
                    "\", \"serial\": " + std::to_string(g_serial) + ", \"ops\": " + std::to_string(g_ops.load()) +
                    ", \"violations\": " + std::to_string(g_violation_count) + ", \"first\": [";
    for (size_t i = 0; i < g_violations.size(); ++i) {
        const auto &v = g_violations[i];
        s += std::string(i ? ", " : "") + "{\"op\": \"" + json_escape(v.op) + "\", \"where\": \"" +
             json_escape(v.where) + "\", \"phase\": \"" + v.phase +
             "\", \"other_thread\": " + (v.other_thread ? "true" : "false") + "}";
    }
    s += "], \"tampered\": \"" + json_escape(g_tampered) + "\", \"native\": \"" + json_escape(g_native) +
         "\", \"native_harness\": \"" + json_escape(g_native_harness) + "\", \"bypass\": " + std::to_string(g_bypass) +
         ", \"cost_us\": " + std::to_string(g_cost_ns / 1000) + "}";
    return s;
}

PyObject *refuse(PyObject *, PyObject *, PyObject *)
{
    {
        std::lock_guard<std::mutex> lock(g_mu);
        tamper("the answer called a function that switches off or goes around the runtime wall");
    }
    PyErr_SetString(PyExc_RuntimeError, "sieve runtime wall: this function is not available to answers");
    return nullptr;
}

// Forwards the raw argument registers, so one trampoline serves every calling convention (METH_VARARGS,
// METH_KEYWORDS, METH_FASTCALL with or without keywords): x86-64 and aarch64 pass the four in registers.
using AnyCall = PyObject *(*)(PyObject *, void *, void *, void *);

// One trampoline per neutered entry point (the slot holds its real function): a method descriptor's
// function gets the instance as self, so self cannot tell which entry point was called.
constexpr int kSlots = 96;
PyCFunction g_slot_orig[kSlots] = {};
const char *g_slot_name[kSlots] = {};
int g_slot_mode[kSlots] = {};  // NeuterMode: refused in the forward, also to the answer's code, or but to the harness
int g_slot_flags[kSlots] = {}; // the PyMethodDef's calling convention (kNeuterMapping reads its arguments)
int g_slots_used = 0;

// neuter(f, mode, name): how an entry point of torch's is refused (wall.py entry_points)
enum NeuterMode {
    kNeuterAlways = 0,
    kNeuterForward = 1,
    kNeuterAnswer = 2,
    kNeuterNative = 3,
    kNeuterHarness = 4,
    kNeuterMapping = 5 // the data path's torch.frombuffer: over a registered mapping only (mapping_call_refused)
};

PyObject *native_refuse(const std::string &what);

// The harness's own call: in its phase, on its thread, with no frame of the answer's file on the stack. What makes a
// tensor over memory numpy or Python reaches (or such a view of a tensor) is refused to every other caller: code the
// answer compiled under a borrowed file name, its constructor (the free phase), its threads, its forward.
// The code objects the harness may run (w_trust): what the modules loaded before the answer define, and the stack
// that started the wall. Code the answer compiled under a borrowed file name is none of them, whatever its name.
std::unordered_set<PyObject *> g_trusted_code;
std::unordered_set<PyObject *> g_caller_code;    // the harness's own functions (and the start stack): innermost frame
std::unordered_set<PyObject *> g_data_path_code; // transport's: innermost frame of kNeuterMapping's calls, no other
std::unordered_set<std::string> g_trusted_files; // the files that trusted code came from
// each trusted code object with the globals its functions run with: the same code run with the answer's globals
// (types.FunctionType(Writer.write.__code__, G)) looks its names up in the answer's dict (redteam/wall2
// h_gadget_trusted_code_answer_globals)
struct PairHash
{
    size_t operator()(const std::pair<PyObject *, PyObject *> &p) const
    {
        return std::hash<PyObject *>()(p.first) * 31 + std::hash<PyObject *>()(p.second);
    }
};
std::unordered_set<std::pair<PyObject *, PyObject *>, PairHash> g_code_globals;

// The file name of the innermost frame that runs code of no trusted module under a trusted module's file name:
// code the answer compiled under a borrowed name (no module defines new code in an old file after the walk). ""
// when none. With the GIL.
std::string borrowed_frame()
{
    std::string found;
    for_each_frame(400, [&](PyFrameObject *f, PyCodeObject *code, const char *file, int) {
        if (file != nullptr && g_trusted_code.count(reinterpret_cast<PyObject *>(code)) == 0 &&
            g_trusted_files.count(file) > 0)
            found = std::string(file) + ":" + std::to_string(PyFrame_GetLineNumber(f));
        return found.empty();
    });
    return found;
}

// Whether every frame on this thread's stack runs trusted code (and none is in the answer's file), the innermost
// one of `innermost` (the callers', or the data path's) where it is given and not empty.
bool stack_trusted(const std::unordered_set<PyObject *> *innermost)
{
    bool ok = true;
    for_each_frame(400, [&](PyFrameObject *f, PyCodeObject *code, const char *file, int depth) {
        const auto &set = depth == 0 && innermost != nullptr && !innermost->empty() ? *innermost : g_trusted_code;
        PyObject *globals = PyFrame_GetGlobals(f);
        ok = (file == nullptr || g_answer != file) &&
             (set.empty() || (set.count(reinterpret_cast<PyObject *>(code)) > 0 &&
                              g_code_globals.count({reinterpret_cast<PyObject *>(code), globals}) > 0));
        Py_XDECREF(globals);
        return ok;
    });
    return ok;
}

PyObject *g_gc_callbacks = nullptr; // gc's own callback list (kept at trust(), before the answer loads)

// What the answer left in place that runs its code inside a harness's own guarded call, where it would see the
// call's result (a tensor over the harness's mapping, a numpy view) or its frames' locals: a torch function or
// dispatch mode (handed every tensor the harness then uses), a trace or profile function (any frame's
// f_locals), a gc callback (gc.get_objects() while the result is alive). The harness sets none of them: one
// present is the answer's (redteam/wall2 h_gadget_*). "" when none.
std::string answer_hook()
{
    if (at::impl::PythonTorchFunctionTLS::stack_len() > 0)
        return "a torch function mode";
    if (c10::impl::TorchDispatchModeTLS::stack_len() > 0)
        return "a torch dispatch mode";
    PyThreadState *ts = PyThreadState_Get();
    if (ts->c_tracefunc != nullptr || ts->c_profilefunc != nullptr)
        return "a trace or profile function";
    if (g_gc_callbacks != nullptr && PyList_Check(g_gc_callbacks) && PyList_GET_SIZE(g_gc_callbacks) > 0)
        return "a gc callback";
    // a name the harness's code looks up replaced for the call (builtins.type/any answering the harness's checks
    // for a fake writer, redteam/wall2 h_gadget_builtins_defeat_writer_checks), put back before the next window
    std::string what;
    if (!snapshot_holds(&what)) {
        std::lock_guard<std::mutex> lock(g_mu);
        tamper(what);
        return what;
    }
    return "";
}

bool harness_own_call(const std::unordered_set<PyObject *> &innermost = g_caller_code)
{
    return g_phase.load() == kHarness && std::this_thread::get_id() == g_main && stack_trusted(&innermost) &&
           answer_hook().empty();
}

// The harness's own mappings (w_mappings, before the answer loads): the only memory the data path's guarded call
// may make a tensor over. Each is held exported (its Py_buffer kept), so its owner cannot close or resize it and
// nothing else is ever mapped at its address while the wall lives; a call is checked by the object's identity,
// never by an address, a range or an attribute the answer could answer.
std::vector<PyObject *> g_mappings;
std::vector<Py_buffer> g_mapping_views;
// Open from the close of a forward window until the next transition: the data path writes a call's outputs there
// and nowhere else. Before a forward the inputs exist and the mapping is the answer's to read through numpy
// (np.frombuffer of transport._MAPS[0]): a write then would hand it the inputs (redteam/wall2
// h_gadget_writer_real_mapping_inputs).
std::atomic<bool> g_write_open{false};

// Why the data path's call (a kNeuterMapping slot, METH_VARARGS | METH_KEYWORDS: args a tuple, kw a dict or NULL)
// may not go on: "" when its buffer argument is one of the harness's mappings, in the window after a forward.
std::string mapping_call_refused(int flags, PyObject *args, PyObject *kw)
{
    if ((flags & (METH_VARARGS | METH_KEYWORDS | METH_FASTCALL)) != (METH_VARARGS | METH_KEYWORDS) || args == nullptr ||
        !PyTuple_Check(args))
        return "an unexpected calling convention";
    PyObject *buf = PyTuple_GET_SIZE(args) > 0               ? PyTuple_GET_ITEM(args, 0)
                    : kw != nullptr && PyDict_CheckExact(kw) ? PyDict_GetItemString(kw, "buffer")
                                                             : nullptr;
    if (std::find(g_mappings.begin(), g_mappings.end(), buf) == g_mappings.end())
        return "over memory that is not one of the harness's own mappings (" +
               std::string(buf != nullptr ? Py_TYPE(buf)->tp_name : "nothing") + ")";
    if (!g_write_open.load())
        return "outside the write of a forward's outputs";
    return "";
}

PyObject *native_refuse(const std::string &what, bool answer);

// A guarded call refused to all but the harness: the answer's fault where one of its frames is on the stack or
// one of its hooks is in place (answer_hook), else the harness's.
PyObject *guarded_refuse(const std::string &what)
{
    const std::string hook = g_phase.load() == kHarness ? answer_hook() : "";
    if (!hook.empty())
        return native_refuse(what + " with " + hook + " of the answer's in place", true);
    return native_refuse(what, !python_where(nullptr).empty());
}

template <int N> PyObject *refuse_when_armed(PyObject *self, void *a, void *b, void *c)
{
    if (g_slot_mode[N] == kNeuterHarness && !harness_own_call())
        return guarded_refuse(std::string(g_slot_name[N]) + " outside the harness's own code");
    if (g_slot_mode[N] == kNeuterMapping) {
        if (!harness_own_call(g_data_path_code))
            return guarded_refuse(std::string(g_slot_name[N]) + " outside the harness's data path");
        // the harness's own code, with the answer's object or at the answer's time: only the answer can have made
        // it so (its names swapped for the data path's Python checks and put back, redteam/wall2
        // h_gadget_builtins_defeat_writer_checks)
        const std::string why =
            mapping_call_refused(g_slot_flags[N], static_cast<PyObject *>(a), static_cast<PyObject *>(b));
        if (!why.empty()) {
            const std::string what = std::string(g_slot_name[N]) + " in the harness's data path " + why;
            {
                std::lock_guard<std::mutex> lock(g_mu);
                tamper(what);
            }
            PyErr_Format(PyExc_PermissionError, "sieve runtime wall: refused: %s", what.c_str());
            return nullptr;
        }
    }
    const int phase = g_phase.load();
    if (phase == kForward) {
        std::string where = python_where(nullptr);
        {
            std::lock_guard<std::mutex> lock(g_mu);
            ++g_bypass;
            record(g_slot_name[N], kForward, std::this_thread::get_id() != g_main, where);
        }
        PyErr_SetString(PyExc_RuntimeError, "sieve runtime wall: not available in the forward");
        return nullptr;
    }
    // a view of tensor memory for numpy made by the answer's code outside the forward (its constructor, code it
    // compiled under a borrowed file name that the harness calls) serves the forward all the same, where no op
    // sees what is done there
    if (g_slot_mode[N] == kNeuterAnswer && !harness_own_call())
        return guarded_refuse(std::string(g_slot_name[N]) + " called by the answer's code");
    return reinterpret_cast<AnyCall>(reinterpret_cast<void (*)()>(g_slot_orig[N]))(self, a, b, c);
}

template <int... N> constexpr std::array<AnyCall, sizeof...(N)> slot_table(std::integer_sequence<int, N...>)
{
    return {&refuse_when_armed<N>...};
}
const auto kSlotFns = slot_table(std::make_integer_sequence<int, kSlots>{});

// An extension function of the answer: the real call, and on the ablation probe the harness's callback
// overwrites what it wrote (its outputs and tensor arguments) with the secret poison. One trampoline per
// function (a plain C module passes the module itself as self to all of its functions), for each calling
// convention a C function can have: pybind11 3 (torch 2.11's) binds with METH_FASTCALL | METH_KEYWORDS,
// pybind11 2 with METH_VARARGS | METH_KEYWORDS, a hand-written module with any of them, METH_O or
// METH_NOARGS. A function of another kind is not patched, and the Python side refuses the forward.
constexpr int kExtSlots = 256;
PyCFunction g_ext_orig[kExtSlots] = {};
int g_ext_flags[kExtSlots] = {};
int g_ext_used = 0;

PyObject *ranges_list(const std::vector<Range> &rs)
{
    PyObject *l = PyList_New(static_cast<Py_ssize_t>(rs.size()));
    for (size_t i = 0; l != nullptr && i < rs.size(); ++i)
        PyList_SET_ITEM(l, static_cast<Py_ssize_t>(i), Py_BuildValue("(kk)", rs[i].first, rs[i].second));
    return l;
}

// The real call's result, or the poisoner's (args: a tuple, kw: a dict or None); steals res.
PyObject *after_extension(PyObject *res, PyObject *args, PyObject *kw)
{
    if (res == nullptr || !g_ablate.load() || g_poison == nullptr)
        return res;
    PyObject *prot = ranges_list(g_protect);
    PyObject *val = PyFloat_FromDouble(g_poison_value);
    PyObject *out = prot != nullptr && val != nullptr
                        ? PyObject_CallFunctionObjArgs(g_poison, args, kw ? kw : Py_None, res, val, prot, nullptr)
                        : nullptr;
    Py_XDECREF(prot);
    Py_XDECREF(val);
    Py_DECREF(res);
    return out;
}

template <class F> F orig_as(int n)
{
    return reinterpret_cast<F>(reinterpret_cast<void (*)()>(g_ext_orig[n]));
}

template <int N> PyObject *ext_varargs_kw(PyObject *self, PyObject *args, PyObject *kw)
{
    return after_extension(orig_as<PyCFunctionWithKeywords>(N)(self, args, kw), args, kw);
}

// METH_VARARGS (a: the tuple), METH_O (a: the argument), METH_NOARGS (a: NULL)
template <int N> PyObject *ext_plain(PyObject *self, PyObject *a)
{
    PyObject *res = orig_as<PyCFunction>(N)(self, a);
    if (res == nullptr || !g_ablate.load())
        return res;
    PyObject *args = g_ext_flags[N] == METH_VARARGS ? (Py_INCREF(a), a)
                     : g_ext_flags[N] == METH_O     ? PyTuple_Pack(1, a)
                                                    : PyTuple_New(0);
    if (args == nullptr) {
        Py_DECREF(res);
        return nullptr;
    }
    PyObject *out = after_extension(res, args, nullptr);
    Py_DECREF(args);
    return out;
}

// METH_FASTCALL, with METH_KEYWORDS or without (kwnames: NULL)
PyObject *fast_after(PyObject *res, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (res == nullptr || !g_ablate.load())
        return res;
    PyObject *tuple = PyTuple_New(nargs);
    PyObject *kw = kwnames != nullptr && PyTuple_GET_SIZE(kwnames) > 0 ? PyDict_New() : nullptr;
    bool ok = tuple != nullptr && (kw != nullptr || kwnames == nullptr || PyTuple_GET_SIZE(kwnames) == 0);
    for (Py_ssize_t i = 0; ok && i < nargs; ++i) {
        Py_INCREF(args[i]);
        PyTuple_SET_ITEM(tuple, i, args[i]);
    }
    for (Py_ssize_t i = 0; ok && kw != nullptr && i < PyTuple_GET_SIZE(kwnames); ++i)
        ok = PyDict_SetItem(kw, PyTuple_GET_ITEM(kwnames, i), args[nargs + i]) == 0;
    PyObject *out = ok ? after_extension(res, tuple, kw) : (Py_DECREF(res), nullptr);
    Py_XDECREF(tuple);
    Py_XDECREF(kw);
    return out;
}

template <int N> PyObject *ext_fast_kw(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    using Fn = PyObject *(*)(PyObject *, PyObject *const *, Py_ssize_t, PyObject *);
    return fast_after(orig_as<Fn>(N)(self, args, nargs, kwnames), args, nargs, kwnames);
}

template <int N> PyObject *ext_fast(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    using Fn = PyObject *(*)(PyObject *, PyObject *const *, Py_ssize_t);
    return fast_after(orig_as<Fn>(N)(self, args, nargs), args, nargs, nullptr);
}

// The trampoline of slot N for a calling convention, as the PyCFunction PyMethodDef stores.
template <int N> PyCFunction ext_trampoline(int flags)
{
    auto as = [](auto f) { return reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(f)); };
    switch (flags) {
    case METH_VARARGS | METH_KEYWORDS:
        return as(&ext_varargs_kw<N>);
    case METH_VARARGS:
    case METH_O:
    case METH_NOARGS:
        return as(&ext_plain<N>);
    case METH_FASTCALL | METH_KEYWORDS:
        return as(&ext_fast_kw<N>);
    case METH_FASTCALL:
        return as(&ext_fast<N>);
    default:
        return nullptr;
    }
}

using TrampolineOf = PyCFunction (*)(int);
template <int... N> constexpr std::array<TrampolineOf, sizeof...(N)> ext_table(std::integer_sequence<int, N...>)
{
    return {&ext_trampoline<N>...};
}
const auto kExtFns = ext_table(std::make_integer_sequence<int, kExtSlots>{});

PyMethodDef *def_of(PyObject *f)
{
    if (PyInstanceMethod_Check(f))
        f = PyInstanceMethod_GET_FUNCTION(f);
    if (PyMethod_Check(f))
        f = PyMethod_GET_FUNCTION(f);
    if (Py_IS_TYPE(f, &PyMethodDescr_Type) || Py_IS_TYPE(f, &PyClassMethodDescr_Type))
        return reinterpret_cast<PyMethodDescrObject *>(f)->d_method;
    if (!PyCFunction_Check(f))
        return nullptr;
    return reinterpret_cast<PyCFunctionObject *>(f)->m_ml;
}

int patch_refuse(PyObject *f)
{
    PyMethodDef *def = def_of(f);
    if (def == nullptr)
        return -1;
    def->ml_meth = reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(refuse));
    return 1;
}

int patch_extension(PyObject *f)
{
    PyMethodDef *def = def_of(f);
    if (def == nullptr || !PyCFunction_Check(f))
        return -1;
    const int flags = def->ml_flags & ~METH_COEXIST;
    for (int i = 0; i < g_ext_used; ++i)
        if (def->ml_meth == kExtFns[i](g_ext_flags[i]))
            return 0;
    if (g_ext_used == kExtSlots || kExtFns[0](flags) == nullptr)
        return -1;
    int n = g_ext_used++;
    g_ext_orig[n] = def->ml_meth;
    g_ext_flags[n] = flags;
    def->ml_meth = kExtFns[n](flags);
    return 1;
}

int patch_slot(PyObject *f, const char *name, int mode)
{
    PyMethodDef *def = def_of(f);
    if (def == nullptr)
        return -1;
    for (int i = 0; i < g_slots_used; ++i)
        if (def->ml_meth == reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(kSlotFns[i])))
            return 0;
    if (g_slots_used == kSlots)
        return -1;
    int n = g_slots_used++;
    g_slot_orig[n] = def->ml_meth;
    g_slot_name[n] = strdup(name);
    g_slot_mode[n] = mode;
    g_slot_flags[n] = def->ml_flags;
    def->ml_meth = reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(kSlotFns[n]));
    return 1;
}

// ---- ctypes shut (docs/VERIFIER.md, "No raw memory, no foreign calls") ---------------------------------------
// After the harness has made the few foreign functions it calls itself (transport's cuMemHostRegister), ctypes
// is made unusable in place, in the C objects every alias of it shares: no instance of a ctypes type can be made
// (every CData type's tp_alloc: construction, from_address, from_buffer(_copy), in_dll, a pointer's contents,
// cast's result all allocate through it; a type made later is shut as the metatypes' tp_new makes it), no
// function pointer called but the harness's own (tp_call of every CFuncPtr type and the __call__ slot wrapper's
// function), no CData's memory exposed as a buffer or rewritten by __setstate__, and _ctypes' module functions
// that take or give raw addresses (dlopen, dlsym, call_function, addressof, byref, PyObj_FromPtr...) refuse. The
// metatypes and base types are static types of _ctypes (CPython 3.11: a second `import _ctypes` copies the same
// module dict), so a fresh import, sys.modules, gc and torch.ctypes all reach the refusals.
std::unordered_set<PyObject *> g_ffi_allowed; // the harness's own function pointers (strong references)
ternaryfunc g_ffi_call = nullptr;             // _ctypes' real CFuncPtr call
bool g_ctypes_shut = false;

PyObject *native_refuse(const std::string &what)
{
    // refused to everyone; charged to the answer when one of its frames is on the stack, else to the harness
    // (a torch or triton path that uses ctypes: the worker retries it as its own fault, never the sample's)
    return native_refuse(what, !python_where(nullptr).empty());
}

PyObject *native_refuse(const std::string &what, bool answer)
{
    const std::string trail = answer ? "" : " at " + python_trail(8); // frames read before g_mu (see above)
    {
        std::lock_guard<std::mutex> lock(g_mu);
        std::string &slot = answer ? g_native : g_native_harness;
        if (slot.empty())
            slot = what + trail;
    }
    PyErr_Format(PyExc_PermissionError,
                 "sieve runtime wall: refused to answers: %s (no raw memory access or foreign calls in the "
                 "candidate)",
                 what.c_str());
    return nullptr;
}

std::string type_name(PyTypeObject *t)
{
    return t != nullptr && t->tp_name != nullptr ? t->tp_name : "?";
}

PyObject *ffi_refuse_alloc(PyTypeObject *t, Py_ssize_t)
{
    return native_refuse("ctypes: making a " + type_name(t) + " object");
}

int ffi_refuse_buffer(PyObject *o, Py_buffer *, int)
{
    native_refuse("ctypes: the memory of a " + type_name(Py_TYPE(o)) + " object as a buffer");
    return -1;
}

// The real tp_new of t (or of its nearest base in table) where a patched tp_new stands, or nullptr.
newfunc real_new(const std::vector<std::pair<PyTypeObject *, newfunc>> &table, PyTypeObject *t)
{
    for (PyTypeObject *m = t; m != nullptr; m = m->tp_base)
        for (const auto &p : table)
            if (p.first == m)
                return p.second;
    return nullptr;
}

PyObject *ffi_call(PyObject *self, PyObject *args, PyObject *kw);
PyTypeObject *g_funcptr = nullptr;                          // _ctypes.CFuncPtr
std::vector<std::pair<PyTypeObject *, newfunc>> g_meta_new; // each ctypes metatype and its real tp_new

// A ctypes type from here on: no instance of it can be made, its memory is no buffer, it calls nothing.
void shut_type(PyTypeObject *t)
{
    t->tp_alloc = ffi_refuse_alloc;
    if (t->tp_as_buffer != nullptr)
        t->tp_as_buffer->bf_getbuffer = ffi_refuse_buffer;
    if (g_funcptr != nullptr && PyType_IsSubtype(t, g_funcptr) && t->tp_call == g_ffi_call)
        t->tp_call = ffi_call;
    PyType_Modified(t);
}

// A ctypes type made after the shut (a module that defines some when it is imported, as ctypes.wintypes, which
// torch's inductor imports lazily) is made, and shut like the others before anyone sees it.
PyObject *ffi_new_type(PyTypeObject *meta, PyObject *args, PyObject *kw)
{
    const newfunc real = real_new(g_meta_new, meta);
    if (real == nullptr)
        return native_refuse("ctypes: making a ctypes type (" + type_name(meta) + ")");
    PyObject *t = real(meta, args, kw);
    if (t == nullptr || !PyType_Check(t))
        return t;
    shut_type(reinterpret_cast<PyTypeObject *>(t));
    // a simple type's byte-swapped twin is made inside, by type's own tp_new
    for (const char *twin : {"__ctype_be__", "__ctype_le__"}) {
        PyObject *o = PyDict_GetItemString(reinterpret_cast<PyTypeObject *>(t)->tp_dict, twin);
        if (o != nullptr && PyType_Check(o))
            shut_type(reinterpret_cast<PyTypeObject *>(o));
    }
    return t;
}

int ffi_refuse_set(PyObject *o, PyObject *, void *)
{
    native_refuse("ctypes: changing a foreign function's restype/argtypes/errcheck (" + type_name(Py_TYPE(o)) + ")");
    return -1;
}

PyObject *ffi_call(PyObject *self, PyObject *args, PyObject *kw)
{
    if (g_ffi_allowed.count(self) == 0)
        return native_refuse("ctypes: calling a foreign function (" + type_name(Py_TYPE(self)) + ")");
    return g_ffi_call(self, args, kw);
}

// One trampoline per refused C function (the name in its message): a PyMethodDef's ml_meth, any convention.
constexpr int kNativeSlots = 40;
const char *g_native_name[kNativeSlots] = {};
int g_native_used = 0;

template <int N> PyObject *native_fn(PyObject *, void *, void *, void *)
{
    return native_refuse(g_native_name[N]);
}

template <int... N> constexpr std::array<AnyCall, sizeof...(N)> native_table(std::integer_sequence<int, N...>)
{
    return {&native_fn<N>...};
}
const auto kNativeFns = native_table(std::make_integer_sequence<int, kNativeSlots>{});

bool is_native_refusal(PyCFunction f)
{
    for (int i = 0; i < g_native_used; ++i)
        if (f == reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(kNativeFns[i])))
            return true;
    return false;
}

// Replaces the C function behind f (a builtin function or a method descriptor) with a refusal named what.
int refuse_native(PyObject *f, const std::string &what)
{
    PyMethodDef *def = def_of(f);
    if (def == nullptr)
        return -1;
    if (is_native_refusal(def->ml_meth))
        return 0;
    if (g_native_used == kNativeSlots)
        return -1;
    int n = g_native_used++;
    g_native_name[n] = strdup(what.c_str());
    def->ml_meth = reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(kNativeFns[n]));
    return 1;
}

// t and every subtype of it, each once.
void subtypes(PyTypeObject *t, std::vector<PyTypeObject *> &out)
{
    for (PyTypeObject *seen : out)
        if (seen == t)
            return;
    out.push_back(t);
    PyObject *subs = PyObject_CallMethod(reinterpret_cast<PyObject *>(t), "__subclasses__", nullptr);
    if (subs == nullptr) {
        PyErr_Clear();
        return;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(subs); ++i)
        subtypes(reinterpret_cast<PyTypeObject *>(PyList_GET_ITEM(subs, i)), out);
    Py_DECREF(subs);
}

// ---- numpy's array interface at a raw address ------------------------------------------------------------------
// numpy makes an array over any address an object's __array_interface__ names ("data": (address, readonly)),
// with no op and no ctypes: a view of tensor memory, or of the wall's statics. numpy's core module converts that
// address with PyLong_AsVoidPtr, from there only (one call site in numpy 2.x's _multiarray_umath): its import
// slot (GOT entry) is pointed at a refusal, so the interface with an address, and np.lib.stride_tricks.
// as_strided built on it, refuse; an interface over a buffer ("data": None) still works, within its bounds.
void *refuse_raw_address(PyObject *)
{
    native_refuse("numpy: an array at a raw address (__array_interface__ data, as_strided)");
    return nullptr;
}

struct GotPatch
{
    const char *path, *symbol;
    void *replacement;
    int patched;
};

int patch_got_of(struct dl_phdr_info *info, size_t, void *data)
{
    auto *want = static_cast<GotPatch *>(data);
    if (info->dlpi_name == nullptr || std::strcmp(info->dlpi_name, want->path) != 0)
        return 0;
    const ElfW(Addr) base = info->dlpi_addr;
    const ElfW(Dyn) *dyn = nullptr;
    ElfW(Addr) relro = 0;
    size_t relro_size = 0;
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
            dyn = reinterpret_cast<const ElfW(Dyn) *>(base + info->dlpi_phdr[i].p_vaddr);
        if (info->dlpi_phdr[i].p_type == PT_GNU_RELRO) {
            relro = base + info->dlpi_phdr[i].p_vaddr;
            relro_size = info->dlpi_phdr[i].p_memsz;
        }
    }
    if (dyn == nullptr)
        return 1;
    auto abs = [base](ElfW(Addr) a) { return a < base ? a + base : a; }; // ld.so relocated these, or not
    const ElfW(Sym) *symtab = nullptr;
    const char *strtab = nullptr;
    const ElfW(Rela) * tables[2] = {nullptr, nullptr};
    size_t sizes[2] = {0, 0};
    for (; dyn->d_tag != DT_NULL; ++dyn) {
        switch (dyn->d_tag) {
        case DT_SYMTAB:
            symtab = reinterpret_cast<const ElfW(Sym) *>(abs(dyn->d_un.d_ptr));
            break;
        case DT_STRTAB:
            strtab = reinterpret_cast<const char *>(abs(dyn->d_un.d_ptr));
            break;
        case DT_JMPREL:
            tables[0] = reinterpret_cast<const ElfW(Rela) *>(abs(dyn->d_un.d_ptr));
            break;
        case DT_PLTRELSZ:
            sizes[0] = dyn->d_un.d_val;
            break;
        case DT_RELA:
            tables[1] = reinterpret_cast<const ElfW(Rela) *>(abs(dyn->d_un.d_ptr));
            break;
        case DT_RELASZ:
            sizes[1] = dyn->d_un.d_val;
            break;
        default:
            break;
        }
    }
    if (symtab == nullptr || strtab == nullptr)
        return 1;
    const long page = sysconf(_SC_PAGESIZE);
    for (int t = 0; t < 2; ++t) {
        for (size_t i = 0; tables[t] != nullptr && i < sizes[t] / sizeof(ElfW(Rela)); ++i) {
            const ElfW(Rela) &r = tables[t][i];
            const auto type = ELF64_R_TYPE(r.r_info);
#if defined(__x86_64__)
            if (type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT)
                continue;
#elif defined(__aarch64__)
            if (type != R_AARCH64_JUMP_SLOT && type != R_AARCH64_GLOB_DAT)
                continue;
#endif
            if (std::strcmp(strtab + symtab[ELF64_R_SYM(r.r_info)].st_name, want->symbol) != 0)
                continue;
            auto slot = base + r.r_offset;
            auto *first = reinterpret_cast<void *>(slot & ~static_cast<ElfW(Addr)>(page - 1));
            if (mprotect(first, static_cast<size_t>(page), PROT_READ | PROT_WRITE) != 0)
                return 1;
            *reinterpret_cast<void **>(slot) = want->replacement;
            if (slot >= relro && slot < relro + relro_size)
                mprotect(first, static_cast<size_t>(page), PROT_READ);
            ++want->patched;
        }
    }
    return 1;
}

// shut_ctypes(allowed): ctypes made unusable but for the function pointers in allowed (the harness's own).
PyObject *w_shut_ctypes(PyObject *, PyObject *args)
{
    PyObject *allowed;
    if (!PyArg_ParseTuple(args, "O", &allowed))
        return nullptr;
    if (g_phase.load() != kFree || g_serial > 0 || g_ctypes_shut)
        return refuse(nullptr, nullptr, nullptr);
    PyObject *m = PyImport_ImportModule("_ctypes");
    if (m == nullptr)
        return nullptr;
    const char *bases[] = {"_SimpleCData", "Structure", "Union", "Array", "_Pointer", "CFuncPtr"};
    std::vector<PyTypeObject *> base_types, all;
    for (const char *b : bases) {
        PyObject *t = PyObject_GetAttrString(m, b);
        if (t == nullptr || !PyType_Check(t)) {
            Py_XDECREF(t);
            Py_DECREF(m);
            PyErr_Format(PyExc_RuntimeError, "sieve runtime wall: _ctypes.%s is not a type", b);
            return nullptr;
        }
        base_types.push_back(reinterpret_cast<PyTypeObject *>(t)); // kept: the module holds them anyway
        Py_DECREF(t);
    }
    PyTypeObject *funcptr = base_types.back();
    g_ffi_call = funcptr->tp_call;
    g_funcptr = funcptr;
    // the harness's own function pointers: checked before anything is changed
    PyObject *it = PyObject_GetIter(allowed);
    if (it == nullptr) {
        Py_DECREF(m);
        return nullptr;
    }
    for (PyObject *f; (f = PyIter_Next(it)) != nullptr;) {
        if (!PyObject_TypeCheck(f, funcptr)) {
            Py_DECREF(f);
            Py_DECREF(it);
            Py_DECREF(m);
            PyErr_SetString(PyExc_TypeError, "sieve runtime wall: shut_ctypes allows ctypes function pointers only");
            return nullptr;
        }
        g_ffi_allowed.insert(f); // the reference is kept
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) {
        Py_DECREF(m);
        return nullptr;
    }
    // every ctypes type there is; one made later is shut as it is made (ffi_new_type)
    for (PyTypeObject *b : base_types)
        subtypes(b, all);
    for (PyTypeObject *t : all)
        shut_type(t);
    int failed = 0;
    std::vector<PyTypeObject *> metas;
    for (PyTypeObject *b : base_types)
        subtypes(Py_TYPE(b), metas); // a metatype's subclass copied its tp_new when it was made
    for (PyTypeObject *meta : metas)
        g_meta_new.emplace_back(meta, meta->tp_new);
    for (PyTypeObject *meta : metas) {
        meta->tp_new = ffi_new_type;
        PyType_Modified(meta);
    }
    for (PyTypeObject *b : base_types) {
        PyTypeObject *meta = Py_TYPE(b);
        for (const char *name : {"from_address", "from_buffer", "from_buffer_copy", "in_dll"}) {
            PyObject *d = PyDict_GetItemString(meta->tp_dict, name);
            if (d != nullptr && refuse_native(d, std::string("ctypes: ") + name) < 0)
                ++failed;
        }
        PyObject *d = PyDict_GetItemString(b->tp_dict, "__setstate__");
        if (d != nullptr && refuse_native(d, "ctypes: __setstate__ (writing a ctypes object's memory)") < 0)
            ++failed;
    }
    // the slot wrapper `_ctypes.CFuncPtr.__call__` calls the function it was made with, not tp_call
    PyObject *call = PyDict_GetItemString(funcptr->tp_dict, "__call__");
    if (call == nullptr || !Py_IS_TYPE(call, &PyWrapperDescr_Type) ||
        reinterpret_cast<PyWrapperDescrObject *>(call)->d_wrapped != reinterpret_cast<void *>(g_ffi_call))
        ++failed;
    else
        reinterpret_cast<PyWrapperDescrObject *>(call)->d_wrapped = reinterpret_cast<void *>(ffi_call);
    for (const char *name : {"restype", "argtypes", "errcheck"}) {
        PyObject *d = PyDict_GetItemString(funcptr->tp_dict, name);
        if (d == nullptr || !Py_IS_TYPE(d, &PyGetSetDescr_Type))
            ++failed;
        else
            reinterpret_cast<PyGetSetDescrObject *>(d)->d_getset->set = ffi_refuse_set;
    }
    for (const char *name : {"dlopen", "dlclose", "dlsym", "call_function", "call_cdeclfunction", "addressof", "byref",
                             "pointer", "resize", "PyObj_FromPtr", "Py_INCREF", "Py_DECREF", "_unpickle"}) {
        PyObject *f = PyObject_GetAttrString(m, name);
        if (f == nullptr) {
            PyErr_Clear();
            continue;
        }
        if (refuse_native(f, std::string("ctypes: ") + name) < 0)
            ++failed;
        Py_DECREF(f);
    }
    Py_DECREF(m);
    // numpy's array interface at a raw address, where numpy is loaded (it is in every candidate: Triton's
    // interpreter and the launch hook use it)
    if (PyObject *core = PyImport_ImportModule("numpy._core._multiarray_umath")) {
        PyObject *file = PyObject_GetAttrString(core, "__file__");
        const char *path = file != nullptr ? PyUnicode_AsUTF8(file) : nullptr;
        char real[PATH_MAX];
        GotPatch want{path != nullptr && realpath(path, real) != nullptr ? real : path, "PyLong_AsVoidPtr",
                      reinterpret_cast<void *>(refuse_raw_address), 0};
        if (want.path != nullptr)
            dl_iterate_phdr(patch_got_of, &want);
        if (want.patched == 0 && want.path != nullptr) {
            // the loader may keep the path as it was given
            want.path = path;
            dl_iterate_phdr(patch_got_of, &want);
        }
        if (want.patched == 0)
            ++failed;
        Py_XDECREF(file);
        Py_DECREF(core);
    }
    PyErr_Clear();
    g_ctypes_shut = true;
    if (failed) {
        PyErr_Format(PyExc_RuntimeError, "sieve runtime wall: %d ctypes entry points could not be shut", failed);
        return nullptr;
    }
    return PyLong_FromSize_t(all.size());
}

// ---- tensors over memory numpy or Python writes (docs/VERIFIER.md, "No raw memory, no foreign calls") ------------
// torch.as_tensor, torch.asarray, the legacy constructors (torch.Tensor(a), torch.FloatTensor(a), x.new(a)) make a
// tensor that shares a numpy array's memory (or a memoryview's, any buffer's, an __array_interface__'s or a
// __cuda_array_interface__'s address); an input copied there (copy_ is allowed) is then computed on in numpy with
// no op seen. Their data arguments are looked at, in their PyMethodDef and in the tensor types' tp_new (every
// alias goes through them: torch._C._VariableFunctions, Tensor.__dict__, a subclass made later): but for the
// harness's own calls, only Python numbers, strings, None, tensors, torch's dtype/device/layout/memory_format,
// numpy's number scalars and lists and tuples of these pass; any other object is refused (a whitelist, so no
// attribute of the object is asked for: a property could answer the wall otherwise than torch).
PyTypeObject *g_tensor_base = nullptr;
std::vector<PyTypeObject *> g_plain; // static types whose objects are values (torch.dtype, numpy.number, ...)

// The type name of the first object in o that is not plain data, or nullptr.
const char *foreign(PyObject *o, int depth)
{
    PyTypeObject *t = Py_TYPE(o);
    if (o == Py_None || t == &PyLong_Type || t == &PyFloat_Type || t == &PyBool_Type || t == &PyComplex_Type ||
        t == &PyUnicode_Type || t == &PyRange_Type || PyObject_TypeCheck(o, g_tensor_base))
        return nullptr;
    const bool heap = (t->tp_flags & Py_TPFLAGS_HEAPTYPE) != 0;
    if (t == &PyList_Type || (PyTuple_Check(o) && !heap)) { // a list, a tuple, torch.Size
        if (depth > 32)
            return t->tp_name;
        const Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
        PyObject **items = PySequence_Fast_ITEMS(o);
        for (Py_ssize_t i = 0; i < n; ++i)
            if (const char *f = foreign(items[i], depth + 1))
                return f;
        return nullptr;
    }
    if (!heap)
        for (PyTypeObject *p : g_plain)
            if (PyType_IsSubtype(t, p))
                return nullptr;
    return t->tp_name != nullptr ? t->tp_name : "?";
}

// Whether a constructor of tensors from data may go on; refused (latched) where it would take foreign memory.
bool data_allowed(const char *what, PyObject *args, PyObject *kw)
{
    if (g_tensor_base == nullptr || harness_own_call())
        return true;
    const char *bad = nullptr;
    for (Py_ssize_t i = 0; bad == nullptr && args != nullptr && i < PyTuple_GET_SIZE(args); ++i)
        bad = foreign(PyTuple_GET_ITEM(args, i), 0);
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (bad == nullptr && kw != nullptr && PyDict_Next(kw, &pos, &k, &v))
        bad = foreign(v, 0);
    if (bad == nullptr)
        return true;
    guarded_refuse(std::string(what) + " of a " + bad + " (a tensor over memory numpy or Python reaches)");
    return false;
}

constexpr int kDataSlots = 8;
PyCFunctionWithKeywords g_data_orig[kDataSlots] = {};
const char *g_data_name[kDataSlots] = {};
int g_data_used = 0;

template <int N> PyObject *data_fn(PyObject *self, PyObject *args, PyObject *kw)
{
    if (!data_allowed(g_data_name[N], args, kw))
        return nullptr;
    return g_data_orig[N](self, args, kw);
}

template <int... N>
constexpr std::array<PyCFunctionWithKeywords, sizeof...(N)> data_table(std::integer_sequence<int, N...>)
{
    return {&data_fn<N>...};
}
const auto kDataFns = data_table(std::make_integer_sequence<int, kDataSlots>{});

std::vector<std::pair<PyTypeObject *, newfunc>> g_tensor_new; // each tensor type patched and its real tp_new

PyObject *tensor_new(PyTypeObject *t, PyObject *args, PyObject *kw)
{
    const newfunc real = real_new(g_tensor_new, t);
    if (real == nullptr) {
        PyErr_SetString(PyExc_TypeError, "sieve runtime wall: a tensor type it does not know");
        return nullptr;
    }
    if (!data_allowed("a tensor constructor (torch.Tensor(data), torch.FloatTensor(data))", args, kw))
        return nullptr;
    return real(t, args, kw);
}

// guard_data(functions, names, tensor_types, tensor_base, plain_types): the constructors' data looked at.
PyObject *w_guard_data(PyObject *, PyObject *args)
{
    PyObject *fns, *names, *types, *base, *plain;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!", &PyList_Type, &fns, &PyList_Type, &names, &PyList_Type, &types,
                          &PyType_Type, &base, &PyList_Type, &plain))
        return nullptr;
    if (g_phase.load() != kFree || g_serial > 0 || g_tensor_base != nullptr)
        return refuse(nullptr, nullptr, nullptr);
    if (PyList_GET_SIZE(fns) != PyList_GET_SIZE(names) || PyList_GET_SIZE(fns) > kDataSlots) {
        PyErr_SetString(PyExc_ValueError, "sieve runtime wall: guard_data takes as many names as functions");
        return nullptr;
    }
    std::vector<PyMethodDef *> defs;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(fns); ++i) {
        PyMethodDef *def = def_of(PyList_GET_ITEM(fns, i));
        const char *name =
            PyUnicode_Check(PyList_GET_ITEM(names, i)) ? PyUnicode_AsUTF8(PyList_GET_ITEM(names, i)) : nullptr;
        if (def == nullptr || name == nullptr ||
            (def->ml_flags & (METH_VARARGS | METH_KEYWORDS | METH_FASTCALL | METH_O | METH_NOARGS)) !=
                (METH_VARARGS | METH_KEYWORDS)) {
            PyErr_Format(PyExc_TypeError, "sieve runtime wall: %s is not a METH_VARARGS | METH_KEYWORDS function",
                         name != nullptr ? name : "?");
            return nullptr;
        }
        defs.push_back(def);
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(plain); ++i)
        if (PyType_Check(PyList_GET_ITEM(plain, i)))
            g_plain.push_back(reinterpret_cast<PyTypeObject *>(PyList_GET_ITEM(plain, i)));
    for (size_t i = 0; i < defs.size(); ++i) {
        const int n = g_data_used++;
        g_data_orig[n] = reinterpret_cast<PyCFunctionWithKeywords>(reinterpret_cast<void (*)()>(defs[i]->ml_meth));
        g_data_name[n] = strdup(PyUnicode_AsUTF8(PyList_GET_ITEM(names, static_cast<Py_ssize_t>(i))));
        defs[i]->ml_meth = reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(kDataFns[n]));
    }
    // each tensor type, and each subtype that inherited its tp_new (a subclass made later copies the patched one)
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(types); ++i) {
        if (!PyType_Check(PyList_GET_ITEM(types, i)))
            continue;
        auto *t = reinterpret_cast<PyTypeObject *>(PyList_GET_ITEM(types, i));
        const newfunc real = t->tp_new;
        if (real == nullptr || real == tensor_new)
            continue;
        std::vector<PyTypeObject *> all;
        subtypes(t, all);
        for (PyTypeObject *s : all) {
            if (s->tp_new != real)
                continue;
            g_tensor_new.emplace_back(s, real);
            s->tp_new = tensor_new;
            PyType_Modified(s);
        }
    }
    Py_INCREF(base);
    g_tensor_base = reinterpret_cast<PyTypeObject *>(base);
    return PyLong_FromSize_t(g_tensor_new.size());
}

// ---- trusted code (harness_own_call) ------------------------------------------------------------------------
// A walk fills one set of code objects; `seen` keeps each module, type and function to one visit.
struct TrustWalk
{
    std::unordered_set<PyObject *> *codes, *seen;
};
std::unordered_set<PyObject *> g_trust_seen, g_caller_seen, g_data_path_seen; // the three walks' visits

void trust_value(const TrustWalk &w, PyObject *o, int depth);

void trust_code_object(const TrustWalk &w, PyObject *code, PyObject *globals)
{
    if (!PyCode_Check(code))
        return;
    if (globals != nullptr && PyDict_Check(globals) && g_code_globals.insert({code, globals}).second)
        Py_INCREF(globals);
    if (!w.codes->insert(code).second)
        return;
    Py_INCREF(code);
    if (const char *file = PyUnicode_AsUTF8(reinterpret_cast<PyCodeObject *>(code)->co_filename))
        g_trusted_files.insert(file);
    PyErr_Clear();
    PyObject *consts = reinterpret_cast<PyCodeObject *>(code)->co_consts;
    for (Py_ssize_t i = 0; consts != nullptr && PyTuple_Check(consts) && i < PyTuple_GET_SIZE(consts); ++i)
        trust_code_object(w, PyTuple_GET_ITEM(consts, i), globals); // nested functions, lambdas, comprehensions
}

void trust_dict(const TrustWalk &w, PyObject *d, int depth)
{
    if (d == nullptr || !PyDict_Check(d))
        return;
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(d, &pos, &k, &v))
        trust_value(w, v, depth + 1);
}

// o's code and, without running any Python, what it holds that runs code: a function's closure (a decorator's
// wrapped function), its __wrapped__; a type's methods, static and class methods, properties; a bound method.
void trust_value(const TrustWalk &w, PyObject *o, int depth)
{
    if (o == nullptr || depth > 6)
        return;
    if (PyFunction_Check(o)) {
        if (!w.seen->insert(o).second)
            return;
        auto *f = reinterpret_cast<PyFunctionObject *>(o);
        trust_code_object(w, f->func_code, f->func_globals);
        if (f->func_closure != nullptr && PyTuple_Check(f->func_closure))
            for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(f->func_closure); ++i) {
                PyObject *cell = PyTuple_GET_ITEM(f->func_closure, i);
                if (PyCell_Check(cell))
                    trust_value(w, PyCell_GET(cell), depth + 1);
            }
        if (f->func_dict != nullptr)
            trust_value(w, PyDict_GetItemString(f->func_dict, "__wrapped__"), depth + 1);
    } else if (PyType_Check(o)) {
        if (w.seen->insert(o).second)
            trust_dict(w, reinterpret_cast<PyTypeObject *>(o)->tp_dict, depth);
    } else if (Py_IS_TYPE(o, &PyStaticMethod_Type) || Py_IS_TYPE(o, &PyClassMethod_Type) ||
               Py_IS_TYPE(o, &PyProperty_Type) || PyMethod_Check(o)) {
        for (const char *attr : {"__func__", "fget", "fset", "fdel"}) {
            if (!PyObject_HasAttrString(o, attr))
                continue;
            PyObject *v = PyObject_GetAttrString(o, attr);
            trust_value(w, v, depth + 1);
            Py_XDECREF(v);
        }
        PyErr_Clear();
    } else if (PyObject **dp = _PyObject_GetDictPtr(o); dp != nullptr && *dp != nullptr && PyDict_Check(*dp)) {
        trust_value(w, PyDict_GetItemString(*dp, "__wrapped__"), depth + 1); // functools.lru_cache, wraps objects
    }
}

void trust_modules(const TrustWalk &w, PyObject *mods)
{
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(mods); ++i) {
        PyObject *m = PyList_GET_ITEM(mods, i);
        if (PyModule_Check(m) && w.seen->insert(m).second)
            trust_dict(w, PyModule_GetDict(m), 0);
    }
}

// trust(modules, callers, data_path): the code the modules define (and the calling stack's) is the harness's; the
// callers' code (and the stack's) is what may make a guarded call itself, so that torch's own functions
// (default_convert calls as_tensor) are no gadget an answer's C callables (partial, map) hand its array to; the
// data path's code (transport) makes one guarded call, over the harness's mappings only (kNeuterMapping), and no
// other. Before init only, so nothing of the answer's, which loads after init, is ever trusted.
PyObject *w_trust(PyObject *, PyObject *args)
{
    PyObject *mods, *callers, *data_path;
    if (!PyArg_ParseTuple(args, "O!O!O!", &PyList_Type, &mods, &PyList_Type, &callers, &PyList_Type, &data_path))
        return nullptr;
    if (g_ready || g_phase.load() != kFree || g_serial > 0)
        return refuse(nullptr, nullptr, nullptr);
    if (g_gc_callbacks == nullptr) {
        PyObject *gc = PyImport_ImportModule("gc");
        g_gc_callbacks = gc != nullptr ? PyObject_GetAttrString(gc, "callbacks") : nullptr; // gc's own list
        Py_XDECREF(gc);
        if (g_gc_callbacks == nullptr || !PyList_Check(g_gc_callbacks)) {
            Py_XDECREF(g_gc_callbacks);
            g_gc_callbacks = nullptr;
            PyErr_SetString(PyExc_RuntimeError, "sieve runtime wall: gc.callbacks is not a list");
            return nullptr;
        }
    }
    const TrustWalk all{&g_trusted_code, &g_trust_seen}, direct{&g_caller_code, &g_caller_seen},
        data{&g_data_path_code, &g_data_path_seen};
    trust_modules(all, mods);
    trust_modules(all, callers);
    trust_modules(direct, callers);
    trust_modules(all, data_path);
    trust_modules(data, data_path);
    PyFrameObject *f = PyThreadState_GetFrame(PyThreadState_Get());
    while (f != nullptr) {
        PyCodeObject *code = PyFrame_GetCode(f);
        PyObject *globals = PyFrame_GetGlobals(f);
        trust_code_object(all, reinterpret_cast<PyObject *>(code), globals);
        trust_code_object(direct, reinterpret_cast<PyObject *>(code), globals);
        Py_XDECREF(globals);
        Py_DECREF(code);
        PyFrameObject *back = PyFrame_GetBack(f);
        Py_DECREF(f);
        f = back;
    }
    PyErr_Clear();
    return Py_BuildValue("(nn)", static_cast<Py_ssize_t>(g_trusted_code.size()),
                         static_cast<Py_ssize_t>(g_caller_code.size()));
}

// ---- the module's functions (called by the trusted harness; an answer calling them shows in the reports) --

// mappings([buffer]): the harness's own mappings (transport.Writer's), before init only (as trust): the answer,
// which loads after init, can register nothing, and what is registered stays mapped (held exported) while the
// process lives.
PyObject *w_mappings(PyObject *, PyObject *args)
{
    PyObject *objs;
    if (!PyArg_ParseTuple(args, "O!", &PyList_Type, &objs))
        return nullptr;
    if (g_ready || g_phase.load() != kFree || g_serial > 0)
        return refuse(nullptr, nullptr, nullptr);
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(objs); ++i) {
        PyObject *o = PyList_GET_ITEM(objs, i);
        Py_buffer view{};
        if (PyObject_GetBuffer(o, &view, PyBUF_SIMPLE) != 0)
            return nullptr;
        Py_INCREF(o);
        g_mappings.push_back(o);
        g_mapping_views.push_back(view);
    }
    return PyLong_FromSsize_t(static_cast<Py_ssize_t>(g_mappings.size()));
}

PyObject *w_init(PyObject *, PyObject *args)
{
    int fd, kernelbench, interpreted;
    const char *answer, *triton_dir;
    PyObject *dirs;
    if (!PyArg_ParseTuple(args, "issOpp", &fd, &answer, &triton_dir, &dirs, &kernelbench, &interpreted))
        return nullptr;
    if (g_ready)
        return refuse(nullptr, nullptr, nullptr);
    struct stat st
    {
    };
    if (fstat(fd, &st) != 0)
        return PyErr_SetFromErrno(PyExc_OSError);
    g_fd = fd;
    g_fd_dev = st.st_dev;
    g_fd_ino = st.st_ino;
    g_answer = answer;
    g_triton_dir = triton_dir;
    for (Py_ssize_t i = 0; i < PySequence_Size(dirs); ++i) {
        PyObject *d = PySequence_GetItem(dirs, i);
        const char *s = d ? PyUnicode_AsUTF8(d) : nullptr;
        if (s != nullptr)
            g_ext_dirs.emplace_back(s);
        Py_XDECREF(d);
    }
    PyErr_Clear();
    g_kernelbench = kernelbench != 0;
    g_interpreted = interpreted != 0;
    for (const char *n : kStrict)
        g_allowed.insert(n);
    for (const char *n : kCore)
        g_core.insert(n);
    g_main = std::this_thread::get_id();
    g_handle = at::addGlobalCallback(
        at::RecordFunctionCallback(on_start, on_end).scopes({at::RecordScope::FUNCTION}).needsInputs(false));
    g_ready = true;
    if (!canary()) {
        PyErr_SetString(PyExc_RuntimeError, "sieve runtime wall: the callback does not see ops");
        return nullptr;
    }
    Py_RETURN_NONE;
}

PyObject *w_neuter(PyObject *, PyObject *args)
{
    PyObject *f;
    int mode;
    const char *name;
    if (!PyArg_ParseTuple(args, "Ois", &f, &mode, &name))
        return nullptr;
    if (g_phase.load() != kFree || g_serial > 0)
        return refuse(nullptr, nullptr, nullptr);
    int r = mode == kNeuterAlways   ? patch_refuse(f)
            : mode == kNeuterNative ? refuse_native(f, name)
                                    : patch_slot(f, name, mode);
    if (r < 0) {
        PyErr_SetString(PyExc_TypeError, "sieve runtime wall: not a C function");
        return nullptr;
    }
    Py_RETURN_NONE;
}

PyObject *w_wrap_extension(PyObject *, PyObject *args)
{
    PyObject *f;
    if (!PyArg_ParseTuple(args, "O", &f))
        return nullptr;
    return PyBool_FromLong(patch_extension(f) >= 0);
}

PyObject *w_set_poisoner(PyObject *, PyObject *args)
{
    PyObject *f;
    if (!PyArg_ParseTuple(args, "O", &f))
        return nullptr;
    if (g_poison != nullptr)
        return refuse(nullptr, nullptr, nullptr);
    Py_INCREF(f);
    g_poison = f;
    Py_RETURN_NONE;
}

PyObject *w_snapshot(PyObject *, PyObject *args)
{
    PyObject *d;
    int fixed = 0;
    if (!PyArg_ParseTuple(args, "O!|p", &PyDict_Type, &d, &fixed))
        return nullptr;
    if (g_phase.load() != kFree || g_serial > 0)
        return refuse(nullptr, nullptr, nullptr);
    if (fixed) {
        Py_INCREF(d);
        g_dsnap.emplace_back(d, PyDict_Size(d));
    }
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(d, &pos, &k, &v)) {
        Py_INCREF(d);
        Py_INCREF(k);
        Py_INCREF(v);
        g_snap.insert(g_snap.end(), {d, k, v});
        if (PyFunction_Check(v)) {
            auto *f = reinterpret_cast<PyFunctionObject *>(v);
            for (PyObject *o : {v, f->func_code, f->func_defaults, f->func_kwdefaults})
                Py_XINCREF(o);
            g_fsnap.insert(g_fsnap.end(), {v, f->func_code, f->func_defaults, f->func_kwdefaults});
            if (f->func_closure != nullptr && PyTuple_Check(f->func_closure)) {
                for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(f->func_closure); ++i) {
                    PyObject *cell = PyTuple_GET_ITEM(f->func_closure, i);
                    if (!PyCell_Check(cell))
                        continue;
                    PyObject *c = PyCell_GET(cell);
                    Py_INCREF(cell);
                    Py_XINCREF(c);
                    g_csnap.insert(g_csnap.end(), {cell, c});
                }
            }
        }
    }
    Py_RETURN_NONE;
}

// phase(p): the harness's transitions, in a fixed order; any other order is the answer's and is latched.
PyObject *w_phase(PyObject *, PyObject *args)
{
    int p;
    if (!PyArg_ParseTuple(args, "i", &p))
        return nullptr;
    int now = g_phase.load();
    std::string report;
    {
        std::lock_guard<std::mutex> lock(g_mu);
        if (!g_ready || std::this_thread::get_id() != g_main)
            tamper("a wall transition off the harness's thread");
        if (p == kForward) {
            if (now != kHarness)
                tamper("the forward window was armed twice");
            ++g_serial;
            g_ops = 0;
            // the probe armed for this window (arm()), or none: a window nobody armed is no probe
            g_probe = g_armed && g_next_probe;
            g_poison_value = g_next_poison;
            g_armed = g_next_probe = false;
            g_probe_told = false;
            g_window_t0 = std::chrono::steady_clock::now();
        } else if (p == kHarness) {
            if (now == kHarness)
                tamper("a wall transition out of order");
        } else if (now != kHarness) {
            tamper("a wall transition out of order");
        }
        g_write_open.store(now == kForward && p == kHarness);
    }
    g_ablate.store(p == kForward && g_probe && g_ablate_ext);
    if (now == kForward && p != kForward) {
        g_last_probe = g_probe;
        g_probe = false;
        g_forward_ns += static_cast<unsigned long>(
            std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - g_window_t0)
                .count());
    }
    if (now == kForward || p == kForward) {
        // the canary runs outside the window's judgement: it is the wall's own op
        auto t0 = std::chrono::steady_clock::now();
        g_phase.store(kFree);
        bool alive = canary();
        std::string what;
        bool intact = snapshot_holds(&what);
        std::lock_guard<std::mutex> lock(g_mu);
        if (!alive)
            tamper("the runtime wall no longer sees ops (RecordFunction switched off or its callback removed)");
        if (!intact)
            tamper(what);
        if (p == kForward)
            g_cost_ns = 0;
        g_cost_ns += static_cast<unsigned long>(
            std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count());
        if (now == kForward) {
            // what the answer did between windows (harness phase) is in this report too: cleared only once told
            report = report_json("window");
            g_violations.clear();
            g_violation_count = 0;
            g_bypass = 0;
        }
    }
    g_phase.store(p);
    if (!report.empty())
        write_report(report);
    Py_RETURN_NONE;
}

PyObject *w_seal(PyObject *, PyObject *)
{
    std::string report;
    {
        std::lock_guard<std::mutex> lock(g_mu);
        if (g_phase.load() == kForward)
            tamper("sealed inside a forward window");
        g_ops = 0;
        g_cost_ns = 0;
        report = report_json("seal");
    }
    g_phase.store(kFree);
    write_report(report);
    Py_RETURN_NONE;
}

// ---- launch accounting (hooks.py) ----------------------------------------------------------------------------

bool harness_call(const char *what)
{
    // a harness-only function: the harness calls it on its thread between windows; any other call is the answer's
    if (g_ready && g_phase.load() == kHarness && std::this_thread::get_id() == g_main)
        return true;
    std::lock_guard<std::mutex> lock(g_mu);
    tamper(std::string("a harness-only function of the runtime wall was called out of turn: ") + what);
    return false;
}

bool code_holds(PyObject *f, PyObject *code)
{
    return f != nullptr && PyFunction_Check(f) && PyFunction_GET_CODE(f) == code;
}

bool parse_ranges(PyObject *list, std::vector<Range> *out)
{
    PyObject *seq = PySequence_Fast(list, "ranges");
    if (seq == nullptr)
        return false;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); ++i) {
        unsigned long lo = 0, hi = 0;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "kk", &lo, &hi)) {
            Py_DECREF(seq);
            return false;
        }
        out->emplace_back(lo, hi);
    }
    Py_DECREF(seq);
    return true;
}

PyObject *w_launch_setup(PyObject *, PyObject *args)
{
    PyObject *jc, *jr, *ic, *ir, *fill, *ranges;
    if (!PyArg_ParseTuple(args, "OOOOOO", &jc, &jr, &ic, &ir, &fill, &ranges))
        return nullptr;
    if (!g_ready || g_phase.load() != kFree || g_serial > 0 || g_run_cls[0] != nullptr)
        return refuse(nullptr, nullptr, nullptr);
    PyObject *cls[2] = {jc, ic}, *run[2] = {jr, ir};
    for (int i = 0; i < 2; ++i) {
        if (cls[i] == Py_None)
            continue;
        if (!PyType_Check(cls[i]) || !PyFunction_Check(run[i])) {
            PyErr_SetString(PyExc_TypeError, "sieve runtime wall: launch_setup(class, function, ...)");
            return nullptr;
        }
        Py_INCREF(cls[i]);
        Py_INCREF(run[i]);
        g_run_cls[i] = cls[i];
        g_run_orig[i] = run[i];
        g_run_code[i] = PyFunction_GET_CODE(run[i]);
        Py_INCREF(g_run_code[i]);
    }
    if (!PyFunction_Check(fill) || !PyFunction_Check(ranges)) {
        PyErr_SetString(PyExc_TypeError, "sieve runtime wall: launch_setup(..., fill, ranges) takes functions");
        return nullptr;
    }
    Py_INCREF(fill);
    Py_INCREF(ranges);
    g_fill = fill;
    g_ranges = ranges;
    g_fill_code = PyFunction_GET_CODE(fill);
    g_ranges_code = PyFunction_GET_CODE(ranges);
    Py_INCREF(g_fill_code);
    Py_INCREF(g_ranges_code);
    Py_RETURN_NONE;
}

// The kernel function a launch runs when kself is exactly one of triton's kernel classes and that function is
// defined in the answer's file (a new reference), else nullptr. A subclass, or an object made to look like a
// kernel, is not the answer's kernel: its launch is passed on uncounted.
PyObject *answer_kernel(int kind, PyObject *kself)
{
    if (reinterpret_cast<PyObject *>(Py_TYPE(kself)) != g_run_cls[kind])
        return nullptr;
    PyObject *d = PyObject_GenericGetDict(kself, nullptr);
    PyObject *fn = d != nullptr && PyDict_Check(d) ? PyDict_GetItemString(d, "fn") : nullptr;
    Py_XINCREF(fn);
    Py_XDECREF(d);
    PyErr_Clear();
    if (fn == nullptr || !PyFunction_Check(fn)) {
        Py_XDECREF(fn);
        return nullptr;
    }
    PyObject *file = reinterpret_cast<PyCodeObject *>(PyFunction_GET_CODE(fn))->co_filename;
    const char *f = file != nullptr ? PyUnicode_AsUTF8(file) : nullptr;
    PyErr_Clear();
    if (f == nullptr || g_answer != f) {
        Py_DECREF(fn);
        return nullptr;
    }
    return fn;
}

// launch(kind, kself, args, kwargs): JITFunction.run (0) or InterpretedFunction.run (1) as hooks.py routes it.
PyObject *w_launch(PyObject *, PyObject *a)
{
    int kind;
    PyObject *kself, *args, *kwargs;
    if (!PyArg_ParseTuple(a, "iOO!O!", &kind, &kself, &PyTuple_Type, &args, &PyDict_Type, &kwargs))
        return nullptr;
    if (kind < 0 || kind > 1 || g_run_orig[kind] == nullptr) {
        PyErr_SetString(PyExc_RuntimeError, "sieve runtime wall: no such launch path");
        return nullptr;
    }
    PyObject *orig = g_run_orig[kind];
    if (!code_holds(orig, g_run_code[kind]) || !code_holds(g_fill, g_fill_code) ||
        !code_holds(g_ranges, g_ranges_code)) {
        std::lock_guard<std::mutex> lock(g_mu);
        tamper("the code of triton's launch or of the launch hook was replaced");
    }
    PyObject *full = PyTuple_New(PyTuple_GET_SIZE(args) + 1);
    if (full == nullptr)
        return nullptr;
    Py_INCREF(kself);
    PyTuple_SET_ITEM(full, 0, kself);
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args); ++i) {
        PyObject *x = PyTuple_GET_ITEM(args, i);
        Py_INCREF(x);
        PyTuple_SET_ITEM(full, i + 1, x);
    }
    PyObject *warm = PyDict_GetItemString(kwargs, "warmup");
    PyObject *fn = warm != nullptr && PyObject_IsTrue(warm) == 1 ? nullptr : answer_kernel(kind, kself);
    PyErr_Clear();
    if (fn == nullptr) {
        PyObject *res = PyObject_Call(orig, full, kwargs);
        Py_DECREF(full);
        return res;
    }
    PyObject *name = PyObject_GetAttrString(fn, "__name__");
    const char *n = name != nullptr && PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : "?";
    std::string kname = n != nullptr ? n : "?";
    Py_XDECREF(name);
    Py_DECREF(fn);
    PyErr_Clear();
    PyObject *rl = PyObject_CallFunctionObjArgs(g_ranges, args, kwargs, nullptr);
    std::vector<Range> mine;
    if (rl == nullptr || !parse_ranges(rl, &mine)) {
        Py_XDECREF(rl);
        Py_DECREF(full);
        return nullptr;
    }
    {
        std::lock_guard<std::mutex> lock(g_mu);
        ++g_launches;
        g_names.insert(kname);
        g_launch_ranges.insert(g_launch_ranges.end(), mine.begin(), mine.end());
    }
    if (g_probe && g_phase.load() == kForward) {
        // the probe: instead of the kernel, its tensor arguments (but inputs and parameters) get the poison
        Py_DECREF(rl);
        Py_DECREF(full);
        PyObject *prot = ranges_list(g_protect);
        PyObject *val = PyFloat_FromDouble(g_poison_value);
        PyObject *r = prot != nullptr && val != nullptr
                          ? PyObject_CallFunctionObjArgs(g_fill, args, kwargs, val, prot, nullptr)
                          : nullptr;
        Py_XDECREF(prot);
        Py_XDECREF(val);
        if (r == nullptr)
            return nullptr;
        Py_DECREF(r);
        Py_RETURN_NONE;
    }
    bool interp = kind == 1 && std::this_thread::get_id() == g_main;
    PyObject *saved = g_cur_ranges;
    if (interp) {
        g_cur_ranges = rl; // owned here until the launch ends
        ++g_in_launch;
    }
    auto t0 = std::chrono::steady_clock::now();
    PyObject *res = PyObject_Call(orig, full, kwargs);
    auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count();
    if (interp) {
        --g_in_launch;
        g_cur_ranges = saved;
    }
    Py_DECREF(rl);
    Py_DECREF(full);
    {
        std::lock_guard<std::mutex> lock(g_mu);
        g_launch_ns += static_cast<unsigned long>(ns);
    }
    return res;
}

// The tensor ranges of the interpreted launch now running (the interpreter's bounds check), or None.
PyObject *w_launch_ranges(PyObject *, PyObject *)
{
    if (g_cur_ranges == nullptr || g_in_launch.load() == 0)
        Py_RETURN_NONE;
    Py_INCREF(g_cur_ranges);
    return g_cur_ranges;
}

// arm(poison or None, ablate_extensions): the next window's probe (or none), once before every forward the
// harness checks. Called by the harness only, in the harness phase; a second arm before the window is tampering.
PyObject *w_arm(PyObject *, PyObject *args)
{
    PyObject *poison;
    int ext = 0;
    if (!PyArg_ParseTuple(args, "Op", &poison, &ext))
        return nullptr;
    if (!harness_call("arm"))
        Py_RETURN_NONE;
    std::lock_guard<std::mutex> lock(g_mu);
    if (g_armed)
        tamper("the probe was armed twice for one window");
    g_armed = true;
    g_next_probe = poison != Py_None;
    g_next_poison = g_next_probe ? PyFloat_AsDouble(poison) : 0.0;
    g_ablate_ext = ext != 0;
    PyErr_Clear();
    Py_RETURN_NONE;
}

// protect([(lo, hi)]): storage the next window's probe leaves alone (set for every call, probe or not).
PyObject *w_protect(PyObject *, PyObject *args)
{
    PyObject *l;
    if (!PyArg_ParseTuple(args, "O", &l))
        return nullptr;
    std::vector<Range> rs;
    if (!parse_ranges(l, &rs))
        return nullptr;
    if (!harness_call("protect"))
        Py_RETURN_NONE;
    g_protect = std::move(rs);
    Py_RETURN_NONE;
}

// probed(): whether the window that just closed was the probe; once per window, harness phase only (the
// harness asks after every window, so an answer that asks too is seen).
PyObject *w_probed(PyObject *, PyObject *)
{
    if (!harness_call("probed"))
        Py_RETURN_FALSE;
    std::lock_guard<std::mutex> lock(g_mu);
    if (g_probe_told)
        tamper("the probe's flag was asked for twice");
    g_probe_told = true;
    return PyBool_FromLong(g_last_probe);
}

// count_kernel(name): a CUDA answer's kernel seen by the profiler in the window that just closed (harness only).
PyObject *w_count_kernel(PyObject *, PyObject *args)
{
    const char *n;
    if (!PyArg_ParseTuple(args, "s", &n))
        return nullptr;
    if (!harness_call("count_kernel"))
        Py_RETURN_NONE;
    std::lock_guard<std::mutex> lock(g_mu);
    ++g_launches;
    g_names.insert(n);
    Py_RETURN_NONE;
}

// counts() -> (launches, kernel names, seconds in the answer's launches, seconds in forward windows)
PyObject *w_counts(PyObject *, PyObject *)
{
    std::lock_guard<std::mutex> lock(g_mu);
    PyObject *names = PyList_New(0);
    for (const auto &n : g_names) {
        PyObject *s = PyUnicode_FromString(n.c_str());
        PyList_Append(names, s);
        Py_XDECREF(s);
    }
    return Py_BuildValue("(kNdd)", g_launches, names, g_launch_ns / 1e9, g_forward_ns / 1e9);
}

// overlaps(lo, hi): whether [lo, hi) overlaps a tensor argument of one of the answer's launches.
PyObject *w_overlaps(PyObject *, PyObject *args)
{
    unsigned long lo, hi;
    if (!PyArg_ParseTuple(args, "kk", &lo, &hi))
        return nullptr;
    std::lock_guard<std::mutex> lock(g_mu);
    for (const auto &r : g_launch_ranges)
        if (r.first < hi && lo < r.second)
            Py_RETURN_TRUE;
    Py_RETURN_FALSE;
}

PyObject *w_demangle(PyObject *, PyObject *args);

PyMethodDef kMethods[] = {
    {"init", w_init, METH_VARARGS, "init(fd, answer_path, triton_dir, ext_dirs, kernelbench, interpreted)"},
    {"neuter", w_neuter, METH_VARARGS,
     "neuter(c_function, mode, name): 0 always, 1 in the forward, 2 also to the answer, 3 raw access, 4 but to "
     "the harness"},
    {"wrap_extension", w_wrap_extension, METH_VARARGS, "wrap_extension(pybind_function) -> patched"},
    {"set_poisoner", w_set_poisoner, METH_VARARGS, "set_poisoner(callable(args, kwargs, result, poison, protect))"},
    {"snapshot", w_snapshot, METH_VARARGS,
     "snapshot(dict, fixed=False): its items (and with fixed its size) must hold at every window's end"},
    {"phase", w_phase, METH_VARARGS, "phase(0 free | 1 harness | 2 forward)"},
    {"launch_setup", w_launch_setup, METH_VARARGS,
     "launch_setup(JITFunction, its run, InterpretedFunction or None, its run or None, fill, ranges)"},
    {"launch", w_launch, METH_VARARGS, "launch(kind, kernel, args, kwargs): a kernel launch through the hook"},
    {"launch_ranges", w_launch_ranges, METH_NOARGS, "launch_ranges(): the running interpreted launch's ranges"},
    {"arm", w_arm, METH_VARARGS, "arm(poison or None, ablate_extensions): the next window's probe"},
    {"protect", w_protect, METH_VARARGS, "protect([(lo, hi)]): what the next probe leaves alone"},
    {"probed", w_probed, METH_NOARGS, "probed(): whether the window that closed was the probe"},
    {"count_kernel", w_count_kernel, METH_VARARGS, "count_kernel(name): a CUDA kernel the profiler saw"},
    {"counts", w_counts, METH_NOARGS, "counts() -> (launches, names, launch_s, forward_s)"},
    {"overlaps", w_overlaps, METH_VARARGS, "overlaps(lo, hi): memory one of the answer's launches was given"},
    {"seal", w_seal, METH_NOARGS, "seal(): the last report"},
    {"shut_ctypes", w_shut_ctypes, METH_VARARGS, "shut_ctypes(allowed_function_pointers) -> ctypes types shut"},
    {"mappings", w_mappings, METH_VARARGS, "mappings([buffer]): the harness's own mappings (before init)"},
    {"trust", w_trust, METH_VARARGS,
     "trust(modules, callers, data_path): their code (and the caller's stack) runs as the harness's"},
    {"guard_data", w_guard_data, METH_VARARGS,
     "guard_data(functions, names, tensor_types, tensor_base, plain_types) -> tensor types patched"},
    {"demangle", w_demangle, METH_VARARGS, "demangle(symbol) -> name as profilers show it"},
    {nullptr, nullptr, 0, nullptr}};

PyModuleDef kModule = {PyModuleDef_HEAD_INIT, "_sieve_wall", nullptr, -1, kMethods, nullptr, nullptr, nullptr, nullptr};

} // namespace

#include <cxxabi.h>

namespace {
PyObject *w_demangle(PyObject *, PyObject *args)
{
    const char *s;
    if (!PyArg_ParseTuple(args, "s", &s))
        return nullptr;
    int status = 0;
    char *d = abi::__cxa_demangle(s, nullptr, nullptr, &status);
    if (d == nullptr || status != 0)
        return PyUnicode_FromString(s);
    PyObject *out = PyUnicode_FromString(d);
    free(d);
    return out;
}
} // namespace

PyMODINIT_FUNC PyInit__sieve_wall()
{
    return PyModule_Create(&kModule);
}
