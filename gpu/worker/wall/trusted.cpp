// The harness's own code and calls (harness_own_call): the trust walk, the stack check, the data path's mappings
// and its write.
#include "wall.h"

#include <ATen/ops/from_blob.h>
#include <c10/core/GradMode.h>
#include <c10/core/impl/PythonDispatcherTLS.h>
#include <torch/csrc/autograd/python_variable.h> // THPVariable_Unpack (inline: no symbol of torch's Python module)

namespace sieve_wall {

// The harness's own call: in its phase, on its thread, with no frame of the answer's file on the stack. What makes a
// tensor over memory numpy or Python reaches (or such a view of a tensor) is refused to every other caller: code the
// answer compiled under a borrowed file name, its constructor (the free phase), its threads, its forward.
// The code objects the harness may run (w_trust): what the modules loaded before the answer define, and the stack
// that started the wall. Code the answer compiled under a borrowed file name is none of them, whatever its name.
std::unordered_set<PyObject *> g_trusted_code;
std::unordered_set<PyObject *> g_caller_code;    // the harness's own functions (and the start stack): innermost frame
std::unordered_set<PyObject *> g_data_path_code; // transport's: innermost frame of kNeuterMapping's calls, no other
std::unordered_set<PyObject *> g_task_code;      // the task module's (callers' modules): see device_frame
std::unordered_set<std::string> g_trusted_files; // the files that trusted code came from
// torch's device context (torch.utils._device.DeviceContext), a torch function mode the harness itself opens around
// the task's get_inputs on every device (taskref.device_inputs), and the code of its __torch_function__: neither is
// the answer's (their class is snapshotted: a method the answer put there is seen at the harness's guarded call)
PyObject *g_device_context = nullptr, *g_device_tf_code = nullptr;
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
    for_each_frame(kWholeStack, [&](PyFrameObject *f, PyCodeObject *code, const char *file, int) {
        if (file != nullptr && g_trusted_code.count(reinterpret_cast<PyObject *>(code)) == 0 &&
            g_trusted_files.count(file) > 0)
            found = std::string(file) + ":" + std::to_string(PyFrame_GetLineNumber(f));
        return found.empty();
    });
    return found;
}

// Whether every frame on this thread's stack runs trusted code (and none is in the answer's file), the innermost
// one of `innermost` (the callers', or the data path's) where it is given and not empty.
// The device context's __torch_function__ stands between the task's code and the constructors from data it calls
// (torch.as_tensor(a) in get_inputs, inside taskref.device_inputs's context): that frame is passed over for the
// innermost one, which must then be the task module's own code (a caller's C callables calling the mode's method
// directly from the child's frame, with the answer's array, are no call of the task's).
bool stack_trusted(const std::unordered_set<PyObject *> *innermost)
{
    bool ok = true, task_due = false; // task_due: the device context's frame was innermost, the task's is next
    const bool cut =
        for_each_frame(kWholeStack, [&](PyFrameObject *f, PyCodeObject *code, const char *file, int depth) {
            if (depth == 0 && innermost == &g_caller_code && g_device_tf_code != nullptr &&
                reinterpret_cast<PyObject *>(code) == g_device_tf_code)
                task_due = true;
            const bool task_frame = task_due && depth == 1;
            if (task_frame)
                task_due = false;
            // the innermost frame must be one of `innermost` where it is given: an empty set (no caller module has a
            // function) admits none, never every trusted frame
            const auto &set = task_frame                                        ? g_task_code
                              : depth == 0 && !task_due && innermost != nullptr ? *innermost
                                                                                : g_trusted_code;
            PyObject *globals = PyFrame_GetGlobals(f);
            ok = (file == nullptr || g_answer != file) &&
                 (set.count(reinterpret_cast<PyObject *>(code)) > 0 &&
                  g_code_globals.count({reinterpret_cast<PyObject *>(code), globals}) > 0);
            Py_XDECREF(globals);
            return ok;
        });
    return ok && !task_due && !cut;
}

PyObject *g_gc_callbacks = nullptr; // gc's own callback list (kept at trust(), before the answer loads)

// What runs code by itself, with no call of the harness's: Python's signal handlers (signal.getsignal of every
// signal) and sys.monitoring's tools (Python 3.12), as they were when the wall started (capture_scheduled, at
// trust()): a change is the answer's.
PyObject *g_getsignal = nullptr, *g_get_tool = nullptr;
std::vector<PyObject *> g_signal_base, g_tool_base; // nullptr where the call failed (no such signal)
constexpr int kSignals = 65, kTools = 6;

PyObject *call_int(PyObject *f, int i)
{
    PyObject *r = f != nullptr ? PyObject_CallFunction(f, "i", i) : nullptr;
    if (r == nullptr)
        PyErr_Clear();
    return r;
}

void capture_scheduled()
{
    PyObject *sig = PyImport_ImportModule("signal");
    g_getsignal = sig != nullptr ? PyObject_GetAttrString(sig, "getsignal") : nullptr;
    Py_XDECREF(sig);
    PyObject *sys = PyImport_ImportModule("sys");
    PyObject *mon = sys != nullptr ? PyObject_GetAttrString(sys, "monitoring") : nullptr;
    g_get_tool = mon != nullptr ? PyObject_GetAttrString(mon, "get_tool") : nullptr;
    Py_XDECREF(mon);
    Py_XDECREF(sys);
    PyErr_Clear();
    for (int n = 1; n < kSignals; ++n)
        g_signal_base.push_back(call_int(g_getsignal, n));
    for (int i = 0; i < kTools; ++i)
        g_tool_base.push_back(call_int(g_get_tool, i));
}

std::string scheduled_hooks()
{
    for (int n = 1; n < kSignals && g_getsignal != nullptr; ++n) {
        PyObject *now = call_int(g_getsignal, n);
        const bool same = now == g_signal_base[static_cast<size_t>(n - 1)];
        Py_XDECREF(now);
        if (!same)
            return "a Python handler of signal " + std::to_string(n);
    }
    for (int i = 0; i < kTools && g_get_tool != nullptr; ++i) {
        PyObject *now = call_int(g_get_tool, i), *was = g_tool_base[static_cast<size_t>(i)];
        const int same = now != nullptr && was != nullptr ? PyObject_RichCompareBool(now, was, Py_EQ) : now == was;
        Py_XDECREF(now);
        PyErr_Clear();
        if (same != 1)
            return "a sys.monitoring tool (" + std::to_string(i) + ")";
    }
    return "";
}

// inputs(live): the call's inputs exist (1: the harness's own call, after taskref.set_inputs) or are gone (0: the
// next call begins, the proof's share is measured): while they exist no op of the harness's phase computes
// (g_inputs_live, observer.cpp on_start); the write of the outputs ends it too.
PyObject *w_inputs(PyObject *, PyObject *args)
{
    int live;
    if (!PyArg_ParseTuple(args, "p", &live))
        return nullptr;
    if (!g_ready || !harness_own_call(g_trusted_code)) {
        std::lock_guard<std::mutex> lock(g_mu);
        tamper("the inputs' mark moved outside the harness's own code");
    }
    g_inputs_live.store(live != 0);
    Py_RETURN_NONE;
}

// What the answer left in place that runs its code inside a harness's own guarded call, where it would see the
// call's result (a tensor over the harness's mapping, a numpy view) or its frames' locals: a torch function or
// dispatch mode (handed every tensor the harness then uses), a trace or profile function (any frame's
// f_locals), a gc callback (gc.get_objects() while the result is alive). The harness sets none of them: one
// present is the answer's (redteam/wall2 h_gadget_*). "" when none.
std::string answer_hook()
{
    for (int64_t i = 0; i < at::impl::PythonTorchFunctionTLS::stack_len(); ++i) {
        const auto &mode = at::impl::PythonTorchFunctionTLS::get_stack_at(i);
        PyObject *o = mode != nullptr ? mode->ptr(&mode->pyinterpreter()) : nullptr;
        // the harness's own device context (exactly torch's class) is no hook of the answer's: a legitimate answer
        // was refused the task's torch.from_numpy in get_inputs (redteam/wall2 l2_softmax_task_numpy_inputs)
        if (o == nullptr || g_device_context == nullptr || reinterpret_cast<PyObject *>(Py_TYPE(o)) != g_device_context)
            return "a torch function mode";
    }
    if (c10::impl::TorchDispatchModeTLS::stack_len() > 0)
        return "a torch dispatch mode";
    // the Python dispatcher on: every op goes to the Python kernels registered on its OpOverload (py_impl)
    if (c10::impl::PythonDispatcherTLS::get_state() != nullptr)
        return "the Python dispatcher";
    PyThreadState *ts = PyThreadState_Get();
    if (ts->c_tracefunc != nullptr || (ts->c_profilefunc != nullptr && ts->c_profilefunc != kernel_calls))
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

bool harness_own_call(const std::unordered_set<PyObject *> &innermost)
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
// From the harness's inputs_made (its inputs exist) to the write of the outputs or its inputs_gone: no compute in the
// harness's phase (observer.cpp on_start)
std::atomic<bool> g_inputs_live{false};

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
    return native_refuse(what, !python_where().empty());
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
    if (g_getsignal == nullptr)
        capture_scheduled();
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
    if (g_device_context == nullptr) {
        PyObject *m = PyImport_ImportModule("torch.utils._device");
        PyObject *t = m != nullptr ? PyObject_GetAttrString(m, "DeviceContext") : nullptr;
        PyObject *tf = t != nullptr && PyType_Check(t)
                           ? PyDict_GetItemString(reinterpret_cast<PyTypeObject *>(t)->tp_dict, "__torch_function__")
                           : nullptr;
        if (tf != nullptr && PyFunction_Check(tf)) {
            g_device_context = t;
            g_device_tf_code = PyFunction_GET_CODE(tf);
            Py_INCREF(g_device_tf_code);
        } else {
            Py_XDECREF(t); // no device context known: every torch function mode is the answer's
        }
        Py_XDECREF(m);
        PyErr_Clear();
    }
    std::unordered_set<PyObject *> task_seen;
    const TrustWalk all{&g_trusted_code, &g_trust_seen}, direct{&g_caller_code, &g_caller_seen},
        data{&g_data_path_code, &g_data_path_seen}, task{&g_task_code, &task_seen};
    trust_modules(all, mods);
    trust_modules(all, callers);
    trust_modules(direct, callers);
    trust_modules(task, callers);
    trust_modules(all, data_path);
    trust_modules(data, data_path);
    // the stack that starts the wall is trusted, but no caller: Child.run stays on it, and C callables of the answer's
    // that fire from its frame (a weakref's callback at `del`, a str subclass's __eq__ on a ctx value) had their
    // guarded calls taken for the harness's own (redteam/wall2 h_r15_weakref_refmodel_numpy_gadget,
    // h_r15_ctx_backend_eq_numpy_gadget)
    PyFrameObject *f = PyThreadState_GetFrame(PyThreadState_Get());
    while (f != nullptr) {
        PyCodeObject *code = PyFrame_GetCode(f);
        PyObject *globals = PyFrame_GetGlobals(f);
        trust_code_object(all, reinterpret_cast<PyObject *>(code), globals);
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

// mappings([buffer], tensor_type): the harness's own mappings (transport.Writer's), before init only (as trust): the
// answer, which loads after init, can register nothing, and what is registered stays mapped (held exported) while
// the process lives. Each must start on a page (w_write protects it whole); tensor_type is torch.Tensor, the only
// type w_write copies from.
PyTypeObject *g_plain_tensor = nullptr;

PyObject *w_mappings(PyObject *, PyObject *args)
{
    PyObject *objs, *tensor_type = nullptr;
    if (!PyArg_ParseTuple(args, "O!|O!", &PyList_Type, &objs, &PyType_Type, &tensor_type))
        return nullptr;
    if (g_ready || g_phase.load() != kFree || g_serial > 0)
        return refuse(nullptr, nullptr, nullptr);
    const auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(objs); ++i) {
        PyObject *o = PyList_GET_ITEM(objs, i);
        Py_buffer view{};
        if (PyObject_GetBuffer(o, &view, PyBUF_WRITABLE) != 0)
            return nullptr;
        if (reinterpret_cast<uintptr_t>(view.buf) % page != 0) {
            PyBuffer_Release(&view);
            PyErr_SetString(PyExc_ValueError, "sieve runtime wall: a mapping must start on a page");
            return nullptr;
        }
        Py_INCREF(o);
        g_mappings.push_back(o);
        g_mapping_views.push_back(view);
    }
    if (tensor_type != nullptr) {
        Py_INCREF(tensor_type);
        g_plain_tensor = reinterpret_cast<PyTypeObject *>(tensor_type);
    }
    return PyLong_FromSsize_t(static_cast<Py_ssize_t>(g_mappings.size()));
}

// map_shared(fd, size): the output buffer (the worker's sealed memfd) mapped by the wall, before init only: a
// writable memoryview of the mapping, which is never unmapped. The child closes its fd next, so the process keeps no
// descriptor of the buffer (Python's mmap keeps a dup of its fd, which /proc/self/fd hands the answer for a second,
// writable mapping of its own) and the protection w_write gives this mapping is the only way onto its pages.
PyObject *w_map_shared(PyObject *, PyObject *args)
{
    int fd;
    Py_ssize_t size;
    if (!PyArg_ParseTuple(args, "in", &fd, &size))
        return nullptr;
    if (g_ready || g_phase.load() != kFree || g_serial > 0)
        return refuse(nullptr, nullptr, nullptr);
    if (size <= 0) {
        PyErr_SetString(PyExc_ValueError, "sieve runtime wall: an empty mapping");
        return nullptr;
    }
    void *p = mmap(nullptr, static_cast<size_t>(size), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED)
        return PyErr_SetFromErrno(PyExc_OSError);
    return PyMemoryView_FromMemory(static_cast<char *>(p), size, PyBUF_WRITE);
}

// write(mapping, tensors, offsets): a call's outputs copied into one of the harness's mappings, the data path's
// write (transport.Writer.write, in the window after a forward: once). The mapping is writable only inside this
// call, which holds the GIL throughout: its pages are PROT_READ before and after, so no Python of the answer's (a
// numpy view of the mapping, a harness attribute it shadowed, a thread, a signal handler, a finalizer) can rewrite
// the outputs between the write and the worker's read (redteam/wall2 h_harness_attr_mapping_fixup; a write there
// is a SIGSEGV, the sample's crash), nor while the copy runs (a copy through torch's Python binding releases the
// GIL). tensors: plain tensors (exactly torch.Tensor), offsets: where each goes, inside the mapping.
std::atomic<bool> g_write_python{false};

int write_window_profile(PyObject *, PyFrameObject *, int what, PyObject *)
{
    if (what == PyTrace_CALL || what == PyTrace_C_CALL)
        g_write_python.store(true);
    return 0;
}

PyObject *w_write(PyObject *, PyObject *args)
{
    PyObject *buf, *tensors, *offsets;
    if (!PyArg_ParseTuple(args, "OO!O!", &buf, &PyList_Type, &tensors, &PyList_Type, &offsets))
        return nullptr;
    const auto found = std::find(g_mappings.begin(), g_mappings.end(), buf);
    std::string why = found == g_mappings.end() ? "over memory that is not one of the harness's own mappings"
                      : !g_write_open.load()    ? "outside the write of a forward's outputs"
                      : !harness_own_call(g_data_path_code)                  ? "outside the harness's data path"
                      : PyList_GET_SIZE(tensors) != PyList_GET_SIZE(offsets) ? "with more tensors than offsets"
                                                                             : "";
    std::vector<std::pair<at::Tensor, size_t>> parts;
    const Py_buffer *view = found == g_mappings.end() ? nullptr : &g_mapping_views[found - g_mappings.begin()];
    for (Py_ssize_t i = 0; why.empty() && i < PyList_GET_SIZE(tensors); ++i) {
        PyObject *o = PyList_GET_ITEM(tensors, i), *n = PyList_GET_ITEM(offsets, i);
        if (g_plain_tensor == nullptr || Py_TYPE(o) != g_plain_tensor || !PyLong_CheckExact(n)) {
            why = "of something other than a plain tensor at an integer offset";
            break;
        }
        const at::Tensor &t = THPVariable_Unpack(o);
        const Py_ssize_t off = PyLong_AsSsize_t(n);
        const auto bytes = static_cast<size_t>(t.numel()) * t.element_size();
        if (off < 0 || off > view->len || bytes > static_cast<size_t>(view->len - off))
            why = "past the end of the mapping";
        else
            parts.emplace_back(t, static_cast<size_t>(off));
    }
    PyErr_Clear();
    if (!why.empty()) {
        const std::string what = "the data path's write " + why;
        {
            std::lock_guard<std::mutex> lock(g_mu);
            tamper(what);
        }
        PyErr_Format(PyExc_PermissionError, "sieve runtime wall: refused: %s", what.c_str());
        return nullptr;
    }
    g_write_open.store(false);
    g_inputs_live.store(false);
    char *base = static_cast<char *>(view->buf);
    const auto len = static_cast<size_t>(view->len);
    if (mprotect(base, len, PROT_READ | PROT_WRITE) != 0)
        return PyErr_SetFromErrno(PyExc_OSError);
    std::string err;
    // No Python may run while the pages are writable: the copy dispatches through torch, where a Python kernel the
    // answer registered for aten::copy_ (torch.library) ran and rewrote the mapping with numpy (redteam/wall2
    // h_r7_library_copy_in_wall_write). A profile function of the wall's own, on this thread for the copy alone
    // (harness_own_call saw none of the answer's), sees any Python call; the GIL keeps every other thread out.
    g_write_python.store(false);
    PyEval_SetProfile(write_window_profile, nullptr);
    try {
        c10::AutoGradMode no_grad(false);
        for (auto &[t, off] : parts)
            if (t.numel() > 0)
                at::from_blob(base + off, t.sizes(), at::TensorOptions().dtype(t.scalar_type())).copy_(t);
    } catch (const std::exception &e) {
        err = e.what();
    }
    PyEval_SetProfile(nullptr, nullptr);
    const bool sealed = mprotect(base, len, PROT_READ) == 0;
    if (g_write_python.load()) {
        const std::string what = "Python ran inside the data path's write (a kernel of the answer's registered for "
                                 "a copy)";
        {
            std::lock_guard<std::mutex> lock(g_mu);
            tamper(what);
        }
        PyErr_Format(PyExc_PermissionError, "sieve runtime wall: refused: %s", what.c_str());
        return nullptr;
    }
    if (!err.empty()) {
        PyErr_Format(PyExc_RuntimeError, "sieve runtime wall: the write failed: %s", err.substr(0, 2000).c_str());
        return nullptr;
    }
    if (!sealed)
        return PyErr_SetFromErrno(PyExc_OSError);
    Py_RETURN_NONE;
}

} // namespace sieve_wall
