// The op observer (a global RecordFunction callback), the window reports and the phase transitions.
#include "wall.h"

namespace sieve_wall {

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
std::string g_answer;
std::vector<std::string> g_ext_dirs;
std::thread::id g_main;
std::unordered_set<std::string> g_allowed, g_core, g_transparent;
// the core overloads' kernels for the device and autograd keys when the wall started (core_tables): a kernel the
// answer registers for aten::mm (torch.library's impl, a Python function that is torch.softmax) is no core op's
// "aten::mm." -> the overload and its table at the wall's start
std::unordered_map<std::string, std::pair<c10::OperatorName, std::string>> g_core_tables;
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

// A dict's size but for the keys Python adds by itself: a warning attributed to a module adds
// __warningregistry__ to its globals (even an ignored one), reading __annotations__ can add that key
Py_ssize_t held_size(PyObject *d)
{
    Py_ssize_t n = PyDict_Size(d);
    for (const char *k : {"__warningregistry__", "__annotations__"}) {
        n -= PyDict_GetItemString(d, k) != nullptr;
        PyErr_Clear();
    }
    return n;
}

// Launch accounting and the ablation probe of Triton answers (hooks.py routes JITFunction.run and
// InterpretedFunction.run here): what the verdict reads is kept in these statics, never in a Python object.
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
PyObject *g_launch_error = nullptr; // what an interpreted launch of the answer's raised in this window (w_probed)
std::chrono::steady_clock::time_point g_window_t0;
double g_next_poison = 0, g_poison_value = 0;
bool g_ablate_ext = false;        // the probe also poisons extension functions (CUDA answers)
std::atomic<int> g_in_launch{0};  // an interpreted launch of the answer's kernel is running (on the main thread)
PyObject *g_cur_ranges = nullptr; // that launch's tensor ranges (the interpreter's bounds check)
std::vector<Range> g_cur_mine;    // the same, a copy no Python holds (the gate's own bounds check)

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
                       "aten::addmv",
                       "aten::mv",
                       "aten::dot"};
// kernelbench: ops that are allowed themselves while what they dispatch inside is judged op by op. einsum and
// tensordot are GEMM-like only where they contract operands (their bmm or mm is core); a one-operand einsum is
// a sum ("ij->i"), one that contracts nothing a mul (redteam/wall2 h_kb_einsum_reduction)
const char *kTransparent[] = {"aten::einsum", "aten::tensordot"};

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

// The answer's place in the Python stack of this thread: "line N" of the innermost frame in the answer's file,
// "" when none, looking at the whole stack: a recursion of other code (functools' or triton's wrappers) hid an
// answer's frame past the 200 frames this once read (redteam/wall2 h_r22_*_depth).
std::string python_where()
{
    std::string where;
    if (!Py_IsInitialized())
        return where;
    PyGILState_STATE st = PyGILState_Ensure();
    const bool cut = for_each_frame(kWholeStack, [&](PyFrameObject *f, PyCodeObject *, const char *file, int) {
        if (file == nullptr || g_answer != file)
            return true;
        where = "line " + std::to_string(PyFrame_GetLineNumber(f));
        return false;
    });
    if (cut)
        where = "a frame past the " + std::to_string(kWholeStack) + " innermost";
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

// The lines of an operator's computed dispatch table for the keys a call on the CPU or the GPU runs through (its
// kernels' names): what core_tables_hold compares. Other keys' kernels (Meta, functorch's) torch may add lazily.
std::string core_table(const c10::OperatorName &op)
{
    const auto h = c10::Dispatcher::singleton().findOp(op);
    if (!h.has_value())
        return "";
    const std::string all = h->dumpComputedTable();
    std::string out;
    size_t at = 0;
    while (at < all.size()) {
        size_t end = all.find('\n', at);
        if (end == std::string::npos)
            end = all.size();
        const std::string line = all.substr(at, end - at);
        // the keys ahead of the backend a call on the CPU or the GPU can pass too: a Python kernel for aten::mm under
        // AutocastCPU, called inside torch.autocast (redteam/wall2 h_r39_autocast_cpu_mm_kernel)
        for (const char *key : {"CPU:", "CUDA:", "AutogradCPU:", "AutogradCUDA:", "AutogradOther:", "Python:",
                                "PythonDispatcher:", "AutocastCPU:", "AutocastCUDA:", "ADInplaceOrView:",
                                "BackendSelect:", "Functionalize:", "PythonTLSSnapshot:", "PreDispatch:"})
            if (line.rfind(key, 0) == 0)
                out += line + "\n";
        at = end + 1;
    }
    return out;
}

// Whether every core overload's kernels are those of the wall's start (g_core_tables); else *what names the op.
bool core_tables_hold(std::string *what)
{
    for (const auto &[name, kept] : g_core_tables)
        if (core_table(kept.first) != kept.second) {
            *what = name.back() == '.' ? name.substr(0, name.size() - 1) : name;
            return false;
        }
    return true;
}

// Whether a recorded event is a kernelbench core op: a dispatcher call (FUNCTION scope) of an overload torch had
// registered when the wall started. A profiler label named "aten::mm" (record_function, left open across the
// checks) or an overload the answer defined (aten::mm.mine, a Python kernel that is torch.softmax) is none
// (redteam/wall2 h_r36_record_function_core_name, h_r36_core_scope_left_open, h_r36_aten_overload_core_name)
bool is_core(const at::RecordFunction &fn)
{
    if (!g_kernelbench || fn.scope() != at::RecordScope::FUNCTION || g_core.count(fn.name()) == 0)
        return false;
    // torch's own kernel runs for the op only while no Python one can stand in: the Python dispatcher (an
    // OpOverload.py_impl under enable_python_dispatcher) or a dispatch mode on the stack runs Python for it
    // (redteam/wall2 h_r38_py_impl_python_dispatcher_mm)
    if (c10::impl::tls_is_dispatch_key_included(c10::DispatchKey::PythonDispatcher) ||
        c10::impl::TorchDispatchModeTLS::stack_len() > 0)
        return false;
    const auto op = fn.operator_name();
    if (!op.has_value())
        return false;
    // its kernels as at the wall's start, at the call itself: a kernel registered and taken away again inside one
    // window is seen by no transition (redteam/wall2 h_r39_mm_kernel_within_forward)
    const auto kept = g_core_tables.find(op->name + "." + op->overload_name);
    return kept != g_core_tables.end() && core_table(*op) == kept->second.second;
}

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
    // label (an autograd.Function's apply, a Python dispatch mode), not compute: what runs inside it is judged.
    // So is a profiler label (record_function, USER_SCOPE) whatever its name: "sieve::softmax" is no operator
    // (redteam/wall2 l2_r36_softmax_scope_ns_label)
    if (std::strstr(name, "::") == nullptr || fn.scope() == at::RecordScope::USER_SCOPE)
        return nullptr;
    bool other = std::this_thread::get_id() != g_main;
    bool core = is_core(fn);
    if (t_core_depth > 0) { // a kernelbench core op's own nested calls
        if (core)
            ++t_core_depth;
        return nullptr;
    }
    if (core)
        ++t_core_depth;
    if (phase == kForward)
        ++g_ops;
    if (core || g_allowed.count(name) > 0 || (g_kernelbench && g_transparent.count(name) > 0))
        return nullptr;
    // Frames are read without holding g_mu: the GIL is taken there, and a thread holding the GIL may be
    // waiting for g_mu in its own op.
    std::string where;
    if (phase == kHarness && !other && g_inputs_live.load()) {
        // from the call's inputs to the write of its outputs the harness computes nothing (its mutation check comes
        // after the write): compute there is the answer's, whatever the stack shows. C callables of the answer's
        // (functools.partial, map, a finalizer's or a signal handler's) leave no frame of its own on it: an
        // os.urandom, a tensor's detach or untyped_storage, a closure cell's finalizer replaced by them computed the
        // softmax of the inputs as the harness's (redteam/wall2 h_r8_*)
        where = python_where();
        std::lock_guard<std::mutex> lock(g_mu);
        record(name, phase, false,
               where.empty() ? "after the call's inputs were made, where the harness computes nothing" : where);
        return nullptr;
    }
    if (phase == kHarness && !other) {
        // the harness's own ops are not the answer's; answer code running now (a __del__, a patched function, a
        // gc callback) is, and so is any op it reaches from its extension
        where = python_where();
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
        // no exemption for triton's interpreter: its copies are allowed ops, and every other op inside an
        // interpreted launch is the answer's (a pre-run hook or grid callable triton calls for it, code it compiled
        // under a triton file name: redteam/wall2 h_r22_*)
        where = other ? "" : python_where();
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
    if (t_core_depth > 0 && is_core(fn))
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
        if (held_size(d) != n) {
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

PyObject *w_init(PyObject *, PyObject *args)
{
    int fd, kernelbench, interpreted;
    const char *answer;
    PyObject *dirs;
    if (!PyArg_ParseTuple(args, "isOpp", &fd, &answer, &dirs, &kernelbench, &interpreted))
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
    for (const c10::OperatorName &op : c10::Dispatcher::singleton().getAllOpNames())
        if (g_kernelbench && g_core.count(op.name) > 0) {
            g_core_tables.emplace(op.name + "." + op.overload_name, std::make_pair(op, core_table(op)));
        }
    for (const char *n : kTransparent)
        g_transparent.insert(n);
    g_main = std::this_thread::get_id();
    // every scope, not FUNCTION alone: Static Runtime records the ops it runs as out variants, with no dispatcher
    // call, under STATIC_RUNTIME_OP (redteam/wall2 h_r11_static_runtime_softmax), the lite interpreter under its own
    g_handle = at::addGlobalCallback(at::RecordFunctionCallback(on_start, on_end).needsInputs(false));
    g_ready = true;
    if (!canary()) {
        PyErr_SetString(PyExc_RuntimeError, "sieve runtime wall: the callback does not see ops");
        return nullptr;
    }
    write_report(key_report());
    Py_RETURN_NONE;
}

PyObject *w_snapshot(PyObject *, PyObject *args)
{
    PyObject *d, *skip = nullptr; // skip: keys the harness itself sets (a task's shape variables)
    int fixed = 0;
    if (!PyArg_ParseTuple(args, "O!|pO", &PyDict_Type, &d, &fixed, &skip))
        return nullptr;
    if (g_phase.load() != kFree || g_serial > 0)
        return refuse(nullptr, nullptr, nullptr);
    if (fixed) {
        Py_INCREF(d);
        g_dsnap.emplace_back(d, held_size(d));
    }
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(d, &pos, &k, &v)) {
        if (skip != nullptr && PySequence_Contains(skip, k) == 1)
            continue;
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
        if (t_core_depth != 0) // a core op's scope open across a transition: no op of the answer's is (is_core)
            tamper("a core op's scope was left open across the wall's transitions");
        std::string op;
        if (g_kernelbench && !core_tables_hold(&op)) // redteam/wall2 h_r38_aten_mm_kernel_override
            tamper("a kernel was registered for the core op " + op + " after the wall started");
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
    if (now == kHarness && p != kHarness)
        drop_seed();
    if (p == kHarness && now != kHarness) {
        // nothing of the answer's may be left to run inside the harness's phase on its own: a Python signal handler
        // (C callables of its, on an interval timer) or a sys.monitoring tool (Python 3.12) the harness did not have
        std::string what = scheduled_hooks();
        if (!what.empty()) {
            std::lock_guard<std::mutex> lock(g_mu);
            tamper(what + " left in place by the answer");
        }
    }
    if (now != kForward && p != kForward) {
        // between the answer's constructor (free) and the harness's phase: what the harness holds and calls (its
        // modules, classes and objects, w_snapshot) must be what it was, or code of the answer's runs as the
        // harness's there (a Child method shadowed by C callables: redteam/wall2 h_r7_gadget_redraw_after_seed)
        std::string what;
        if (!snapshot_holds(&what)) {
            std::lock_guard<std::mutex> lock(g_mu);
            tamper(what);
        }
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
    // the answer's constructor and load_state_dict are over: the worker sends the call's seed on this line alone
    // (a line the answer forges earlier is followed by this one, two for one call: WALL_TAMPERED)
    if (now == kFree && p == kHarness)
        write_report("{\"t\": \"wall\", \"kind\": \"built\"}");
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

} // namespace sieve_wall
