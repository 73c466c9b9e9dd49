// The runtime wall (docs/VERIFIER.md, "The runtime wall"): a trusted CPython extension, built by the worker
// with the compiler directly and loaded into every candidate before any of the answer is, that sees every
// ATen operator the dispatcher runs (a global RecordFunction callback: the dispatcher runs it for every
// observed op when one exists, whether Python or C++ called the op) and judges the answer's ones against a
// policy. Its state lives in the statics of its parts (wall.h), which the answer's Python cannot reach; what it
// found goes to the worker as one JSON line per armed window, written with write(2) on the result pipe
// (observer.cpp). This file: the module's table and the launch accounting.
#include "wall.h"

#include <cxxabi.h>

namespace sieve_wall {

// ---- the module's functions (called by the trusted harness; an answer calling them shows in the reports) --

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

// ---- launch accounting (hooks.py) ----------------------------------------------------------------------------

// The answer's file as it was when the launch hook was set up (before any of the answer loaded), with no
// whitespace: what a JITFunction's src must be part of (jit_src_in_answer).
std::string g_answer_text;
std::string g_answer_raw; // as read, for the interpreter's linecache (callees.cpp rewriter_sources_hold)
bool g_answer_text_read = false;
// kernel object -> the src object found in the answer's file (a reference held: the pointer is not reused)
std::unordered_map<PyObject *, PyObject *> g_src_seen;

// The classes a launch's code comes from (triton's kernel classes and their bases but Generic and object, and the
// interpreter's FunctionRewriter) and a copy of each one's __dict__ at launch_setup: a class attribute the answer
// changed or added (a `_src` property on JITFunction, FunctionRewriter's source hooks) made a kernel of torch's run
// as one of the answer's (redteam/wall2 round 39). "run" is the launch hook's own.
std::vector<std::pair<PyObject *, PyObject *>> g_class_dicts;
PyObject *g_rewriter_cls = nullptr;

void keep_class(PyObject *cls)
{
    if (cls == nullptr || !PyType_Check(cls))
        return;
    PyObject *mro = reinterpret_cast<PyTypeObject *>(cls)->tp_mro;
    for (Py_ssize_t i = 0; mro != nullptr && i < PyTuple_GET_SIZE(mro); ++i) {
        auto *t = reinterpret_cast<PyTypeObject *>(PyTuple_GET_ITEM(mro, i));
        const std::string name = t->tp_name;
        if (t == &PyBaseObject_Type || name == "Generic" || name == "typing.Generic")
            continue;
        bool seen = false;
        for (const auto &[c, d] : g_class_dicts)
            seen = seen || c == reinterpret_cast<PyObject *>(t);
        if (seen || t->tp_dict == nullptr)
            continue;
        Py_INCREF(t);
        g_class_dicts.emplace_back(reinterpret_cast<PyObject *>(t), PyDict_Copy(t->tp_dict));
    }
}

// Whether the kept classes are as they were; else *what names the class and the attribute.
bool classes_hold(std::string *what)
{
    for (const auto &[c, copy] : g_class_dicts) {
        PyObject *now = reinterpret_cast<PyTypeObject *>(c)->tp_dict;
        const char *cn = reinterpret_cast<PyTypeObject *>(c)->tp_name;
        if (copy == nullptr || now == nullptr) {
            *what = cn;
            return false;
        }
        Py_ssize_t pos = 0;
        PyObject *k, *v;
        while (PyDict_Next(copy, &pos, &k, &v)) {
            const char *ks = PyUnicode_Check(k) ? PyUnicode_AsUTF8(k) : nullptr;
            if (ks != nullptr && std::strcmp(ks, "run") == 0)
                continue;
            if (PyDict_GetItemWithError(now, k) != v) {
                PyErr_Clear();
                *what = std::string(cn) + "." + (ks != nullptr ? ks : "?");
                return false;
            }
        }
        if (PyDict_Size(now) != PyDict_Size(copy)) {
            *what = std::string(cn) + " (an attribute added)";
            return false;
        }
    }
    return true;
}

// An attribute of a kernel object's (or its rewriter's) own dict that hides one its class defines and that triton
// calls on it (an instance `rewritten_fn` dict, a `parse` returning another kernel's tree): *what names it.
bool shadows(PyObject *obj, PyObject *d, std::string *what)
{
    static const char *kNames[] = {"rewritten_fn",
                                   "rewrite",
                                   "parse",
                                   "cache_key",
                                   "get_capture_scope",
                                   "_do_compile",
                                   "create_binder",
                                   "run",
                                   "_unsafe_update_src",
                                   "add_pre_run_hook",
                                   "warmup",
                                   "preload",
                                   "_call_hook",
                                   "_pack_args",
                                   "rewrite_ast",
                                   "_get_jit_fn_file_line",
                                   "_find_def",
                                   "_prepare_source",
                                   "_transform_ast",
                                   "_compile_and_exec",
                                   "ast_transformer",
                                   "src",
                                   "_src"};
    if (d == nullptr || !PyDict_Check(d))
        return false;
    static std::vector<std::pair<const char *, PyObject *>> keys; // interned once, held
    if (keys.empty())
        for (const char *n : kNames)
            keys.emplace_back(n, PyUnicode_InternFromString(n));
    for (const auto &[n, name] : keys) {
        if (name == nullptr || PyDict_GetItemWithError(d, name) == nullptr) {
            PyErr_Clear();
            continue;
        }
        PyObject *cls_attr = _PyType_Lookup(Py_TYPE(obj), name);
        if (cls_attr != nullptr &&
            (PyObject_TypeCheck(cls_attr, &PyProperty_Type) || PyFunction_Check(cls_attr) || PyDict_Check(cls_attr))) {
            *what = n;
            return true;
        }
    }
    return false;
}

std::string without_space(const char *p, size_t n)
{
    std::string out;
    out.reserve(n);
    for (size_t i = 0; i < n; ++i)
        if (!std::isspace(static_cast<unsigned char>(p[i])))
            out += p[i];
    return out;
}

void read_answer_text()
{
    g_answer_text_read = false;
    FILE *f = std::fopen(g_answer.c_str(), "rb");
    if (f == nullptr)
        return;
    std::string all;
    char buf[65536];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0 && all.size() < (64u << 20))
        all.append(buf, n);
    std::fclose(f);
    g_answer_text = without_space(all.data(), all.size());
    g_answer_raw = all;
    g_answer_text_read = true;
}

// A JITFunction's src as triton reads it (`_src`, or `src` in older versions; a new reference or nullptr).
PyObject *src_of(PyObject *k)
{
    PyObject *s = PyObject_GetAttrString(k, "_src");
    if (s == nullptr) {
        PyErr_Clear();
        s = PyObject_GetAttrString(k, "src");
    }
    PyErr_Clear();
    return s;
}

// Whether a JITFunction (d: its __dict__) compiles code of the answer's file: on the GPU triton compiles the
// object's src (`_src`, or `src` in older versions), not `fn`; a kernel of torch's whose fn the answer swapped for
// one of its own functions ran torch's code as the answer's kernel (redteam/wall2
// h_r38_kernel_fn_swapped_torch_kernel). The src must be part of the answer's file, whitespace aside (a kernel
// nested in a function is dedented). A version that keeps neither attribute is not checked.
bool jit_src_in_answer(PyObject *kself, PyObject *d)
{
    std::string what;
    if (shadows(kself, d, &what))
        return false;
    // read as triton reads it (its class's `src` property, or an attribute in older versions); the classes are
    // kept as they were (classes_hold), so the property is triton's. None: not the answer's kernel
    PyObject *src = src_of(kself);
    if (src == nullptr || !PyUnicode_Check(src) || !g_answer_text_read) {
        Py_XDECREF(src);
        return false;
    }
    auto it = g_src_seen.find(kself);
    if (it != g_src_seen.end() && it->second == src) {
        Py_DECREF(src);
        return true;
    }
    Py_ssize_t n = 0;
    const char *p = PyUnicode_AsUTF8AndSize(src, &n);
    const std::string needle = p != nullptr ? without_space(p, static_cast<size_t>(n)) : "";
    PyErr_Clear();
    if (needle.empty() || g_answer_text.find(needle) == std::string::npos) {
        Py_DECREF(src);
        return false;
    }
    if (it != g_src_seen.end()) {
        Py_DECREF(it->second);
        it->second = src; // the reference taken by getattr
    } else {
        Py_INCREF(kself);
        g_src_seen.emplace(kself, src);
    }
    return true;
}

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
    read_answer_text(); // before any of the answer loads (jit_src_in_answer)
    keep_class(g_run_cls[0]);
    keep_class(g_run_cls[1]);
    if (g_run_cls[1] != nullptr) {
        PyObject *m = PyImport_ImportModule("triton.runtime.interpreter");
        g_rewriter_cls = m != nullptr ? PyObject_GetAttrString(m, "FunctionRewriter") : nullptr;
        Py_XDECREF(m);
        PyErr_Clear();
        keep_class(g_rewriter_cls);
    }
    callees_setup(g_answer_raw);
    Py_RETURN_NONE;
}

// Whether a function's code comes from the answer's file.
bool in_answer(PyObject *fn)
{
    if (fn == nullptr || !PyFunction_Check(fn))
        return false;
    PyObject *file = reinterpret_cast<PyCodeObject *>(PyFunction_GET_CODE(fn))->co_filename;
    const char *f = file != nullptr ? PyUnicode_AsUTF8(file) : nullptr;
    PyErr_Clear();
    return f != nullptr && g_answer == f;
}

// Whether an InterpretedFunction (d: its __dict__) runs fn: the interpreter runs its rewriter's function,
// compiled once into the class's rewritten_fn under the key fn. An object whose fn was swapped for one of the
// answer's after it was made (torch's own softmax kernel with an empty function of the answer's as its fn) ran
// torch's code as the answer's kernel (redteam/wall2 h_r38_kernel_fn_swapped_torch_kernel); so does a cache entry
// the answer put there for its own function.
bool interpreted_runs(PyObject *kself, PyObject *d, PyObject *fn, bool drop)
{
    std::string what;
    PyObject *rw = PyDict_Check(d) ? PyDict_GetItemString(d, "rewriter") : nullptr;
    if (rw == nullptr || shadows(kself, d, &what) ||
        (g_rewriter_cls != nullptr && reinterpret_cast<PyObject *>(Py_TYPE(rw)) != g_rewriter_cls))
        return false;
    PyObject *rwd = PyObject_GenericGetDict(rw, nullptr);
    const bool same =
        rwd != nullptr && PyDict_Check(rwd) && PyDict_GetItemString(rwd, "fn") == fn && !shadows(rw, rwd, &what);
    // the rewriter reads fn's text with inspect.getsourcelines, which follows __wrapped__ first: an empty function of
    // the answer's wrapping torch's kernel compiled torch's text under the answer's file name
    // (redteam/wall2 h_r41_wrapped_torch_source)
    PyObject *fd = drop && PyFunction_Check(fn) ? reinterpret_cast<PyFunctionObject *>(fn)->func_dict : nullptr;
    const bool wrapped = fd != nullptr && PyDict_Check(fd) && PyDict_GetItemString(fd, "__wrapped__") != nullptr;
    Py_XDECREF(rwd);
    PyErr_Clear();
    if (!same || wrapped)
        return false;
    // the class's cache of rewritten functions: its entry for fn dropped at every launch and device call of the
    // answer's function (drop; triton's own: drop_own_rewritten), so that the interpreter rewrites fn with the rewriter
    // checked here. An entry the answer put there ran torch's code compiled under the answer's file name (redteam/wall2
    // h_r39_rewritten_cache_torch_code), and so did one planted between two device calls of one launch
    // (h_r40_cache_plant_mid_launch).
    PyObject *cache = PyDict_GetItemString(reinterpret_cast<PyTypeObject *>(Py_TYPE(kself))->tp_dict, "rewritten_fn");
    bool ok = cache != nullptr && PyDict_CheckExact(cache);
    if (ok && drop) {
        keep_only_functions(cache); // no key of the answer's making that only looks like fn (drop_own_rewritten)
        drop_entry(cache, fn);
    }
    PyErr_Clear();
    return ok;
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
    const bool runs = fn != nullptr && d != nullptr &&
                      (kind == 1 ? interpreted_runs(kself, d, fn, true) : jit_src_in_answer(kself, d));
    Py_XDECREF(d);
    PyErr_Clear();
    if (fn == nullptr || !PyFunction_Check(fn) || !runs) {
        Py_XDECREF(fn);
        return nullptr;
    }
    if (!in_answer(fn)) {
        Py_DECREF(fn);
        return nullptr;
    }
    return fn;
}

// launch(kind, kself, args, kwargs): JITFunction.run (0) or InterpretedFunction.run (1) as hooks.py routes it.
// The grid an interpreted launch runs: an exact tuple of exact ints, read with no Python of the answer's. triton's
// interpreter indexes the grid between programs, and a tuple subclass's __getitem__ ran numpy there, with no kernel
// frame on the stack (redteam/wall2 h_r44_grid_getitem_between_programs). nullptr, an error set, when not one.
PyObject *plain_grid(PyObject *g)
{
    if (!PyTuple_Check(g)) {
        PyErr_Format(PyExc_TypeError, "sieve runtime wall: the grid of an interpreted launch is a %.100s, not a tuple",
                     Py_TYPE(g)->tp_name);
        return nullptr;
    }
    const Py_ssize_t n = PyTuple_GET_SIZE(g);
    PyObject *t = PyTuple_New(n);
    for (Py_ssize_t i = 0; t != nullptr && i < n; ++i) {
        PyObject *x = PyTuple_GET_ITEM(g, i);
        PyTypeObject *tp = Py_TYPE(x);
        // an int (its value read in C, no __index__ runs), or one of numpy's own integer scalars (C types)
        const bool numpy_int = (tp->tp_flags & Py_TPFLAGS_HEAPTYPE) == 0 &&
                               std::strncmp(tp->tp_name, "numpy.", 6) == 0 && tp->tp_as_number != nullptr &&
                               tp->tp_as_number->nb_index != nullptr;
        PyObject *v = PyLong_Check(x) ? PyLong_FromLongLong(PyLong_AsLongLong(x))
                      : numpy_int     ? PyNumber_Index(x)
                                      : nullptr;
        if (v == nullptr && !PyErr_Occurred())
            PyErr_Format(PyExc_TypeError,
                         "sieve runtime wall: the grid of an interpreted launch holds a %.100s, not an int",
                         tp->tp_name);
        if (v == nullptr || PyErr_Occurred()) {
            Py_XDECREF(v);
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

int g_in_grid = 0;
// the grid function of the launch now starting, and whether its one call is still to come: the wrapper, taken by the
// answer and called again (as a key heapq calls, a finalizer), would open the grid function's window at will
PyObject *g_grid_fn = nullptr;
bool g_grid_armed = false;

PyObject *grid_call(PyObject *grid, PyObject *meta)
{
    if (grid != g_grid_fn || !g_grid_armed) {
        const std::string why = "the wall's grid wrapper called again (a grid function is called once per launch)";
        {
            std::lock_guard<std::mutex> lock(g_mu);
            record(why.c_str(), g_phase.load(), false, python_where());
        }
        PyErr_SetString(PyExc_RuntimeError, ("sieve runtime wall: refused: " + why).c_str());
        return nullptr;
    }
    g_grid_armed = false;
    ++g_in_grid; // the only Python of the answer's but its kernels' that may start inside its interpreted launch
    PyObject *r = PyObject_CallOneArg(grid, meta);
    --g_in_grid;
    PyObject *t = r != nullptr ? plain_grid(r) : nullptr;
    Py_XDECREF(r);
    return t;
}

PyMethodDef g_grid_def = {"sieve_grid", grid_call, METH_O, "the answer's grid function, its grid made plain"};

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
    std::string changed;
    if (!classes_hold(&changed) || !device_calls_hold(&changed)) {
        std::lock_guard<std::mutex> lock(g_mu);
        tamper("a class of triton's kernels or compiler, or the wall's device-call hook, was changed after the wall "
               "started: " +
               changed);
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
    // warmup read once and given to triton as that bool: an object true when the wall read it and false when
    // triton did ran torch's kernel as a warmup the wall let pass (redteam/wall2 h_r38_warmup_two_faced_torch_kernel)
    PyObject *warm = PyDict_GetItemString(kwargs, "warmup");
    const bool warmup = warm != nullptr && PyObject_IsTrue(warm) == 1;
    PyErr_Clear();
    if (warm != nullptr && PyDict_SetItemString(kwargs, "warmup", warmup ? Py_True : Py_False) != 0) {
        Py_DECREF(full);
        return nullptr;
    }
    PyObject *fn = answer_kernel(kind, kself);
    PyErr_Clear();
    const int phase = g_phase.load();
    // the answer's kernel, warmup or not: its arguments and pre-run hooks may run no code of the answer's inside
    // triton's run, where it could take the device-call hooks out for the compile (callees.cpp launch_refused)
    std::string refused;
    if (fn != nullptr && (phase == kForward || phase == kFree)) {
        refused = launch_refused(kind, kself, fn, args, kwargs);
        PyErr_Clear();
        if (!refused.empty())
            Py_CLEAR(fn);
    }
    if (fn == nullptr && (phase == kForward || phase == kFree)) {
        // a kernel the answer did not write, launched in the forward: torch's own Triton kernels (a sparse
        // softmax, Inductor's) do the work with no op for the observer to see (redteam/wall2
        // h_r36_torch_sparse_triton_softmax). Refused like an op, with its name and file. So is it, or its
        // warmup, before the forward: either hands back a compiled kernel that launches past this hook
        // (h_r38_warmup_compiled_kernel_launch, GPU; round 39's probe C).
        const std::string what = !refused.empty() ? refused : foreign_kernel(kself);
        const std::string where = python_where();
        std::lock_guard<std::mutex> lock(g_mu);
        record(what.c_str(), phase, false, where.empty() ? "no line of the answer on the stack" : where);
    }
    if (!refused.empty()) {
        // not run: the forward gets the error, the verdict names what was refused
        Py_DECREF(full);
        PyErr_SetString(PyExc_RuntimeError, ("sieve runtime wall: refused: " + refused).c_str());
        return nullptr;
    }
    // after the check of the arguments: the grid function's wrapper is the wall's
    PyObject *grid = kind == 1 ? PyDict_GetItemString(kwargs, "grid") : nullptr;
    if (grid != nullptr) {
        const bool fn_grid = !PyTuple_Check(grid) && PyCallable_Check(grid);
        PyObject *g = fn_grid ? PyCFunction_New(&g_grid_def, grid) : plain_grid(grid);
        g_grid_fn = fn_grid ? grid : nullptr; // held by kwargs for the launch
        g_grid_armed = fn_grid;
        if (g == nullptr || PyDict_SetItemString(kwargs, "grid", g) != 0) {
            Py_XDECREF(g);
            Py_XDECREF(fn);
            Py_DECREF(full);
            return nullptr;
        }
        Py_DECREF(g);
    }
    // after the launch, the classes and the device-call hooks again: code of the answer's that ran inside it (a grid
    // function, after the compile) could have put back what code before the compile took out
    auto recheck = [&]() {
        PyObject *et, *ev, *tb; // the launch's own error, if any, kept across the check
        PyErr_Fetch(&et, &ev, &tb);
        std::string changed;
        if (!classes_hold(&changed) || !device_calls_hold(&changed)) {
            std::lock_guard<std::mutex> lock(g_mu);
            tamper("a class of triton's kernels or compiler, or the wall's device-call hook, changed during a "
                   "launch: " +
                   changed);
        }
        PyErr_Clear();
        PyErr_Restore(et, ev, tb);
    };
    if (fn == nullptr || warmup) {
        Py_XDECREF(fn);
        PyObject *res = PyObject_Call(orig, full, kwargs);
        g_grid_fn = nullptr;
        g_grid_armed = false;
        Py_DECREF(full);
        recheck();
        return res;
    }
    PyObject *name = PyObject_GetAttrString(fn, "__name__");
    const char *n = name != nullptr && PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : "?";
    std::string kname = n != nullptr ? n : "?";
    Py_XDECREF(name);
    // its code and its module's kernels' (the kernel watch knows the kernel's frames by their code)
    if (kind == 1 && PyFunction_Check(fn))
        kernel_watch_code(fn);
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
    std::vector<Range> saved_mine;
    const int saved_grid = g_in_grid; // a launch from inside a grid function is no grid function's call
    if (interp) {
        g_cur_ranges = rl; // owned here until the launch ends
        saved_mine.swap(g_cur_mine);
        g_cur_mine = mine;
        g_in_grid = 0;
        ++g_in_launch;
        // triton's own device functions are rewritten for this launch from their own text: an entry the answer put
        // in the interpreter's cache for one (tl.ravel's, a numpy softmax of its own) ran in its place
        // (redteam/wall2 h_r41_own_kernel_cache_plant)
        drop_own_rewritten(
            PyDict_GetItemString(reinterpret_cast<PyTypeObject *>(Py_TYPE(kself))->tp_dict, "rewritten_fn"));
        PyErr_Clear();
        kernel_watch_start(); // what the kernel's body calls (callees.cpp)
    }
    auto t0 = std::chrono::steady_clock::now();
    PyObject *res = PyObject_Call(orig, full, kwargs);
    auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count();
    if (interp && res == nullptr && g_phase.load() == kForward && g_launch_error == nullptr) {
        // the error an interpreted launch of the answer's raised is the window's outcome, caught or not: its message,
        // traceback and the frames' locals carry the tile's values to the forward (redteam/wall2 h_r48_*: an
        // assert's message, the bounds check's address, a frame's locals), which computed the softmax in Python
        PyObject *et, *ev, *tb;
        PyErr_Fetch(&et, &ev, &tb);
        PyErr_NormalizeException(&et, &ev, &tb);
        if (ev != nullptr && tb != nullptr)
            PyException_SetTraceback(ev, tb);
        g_launch_error = ev;
        Py_XINCREF(ev);
        PyErr_Restore(et, ev, tb);
    }
    if (interp) {
        kernel_watch_end();
        --g_in_launch;
        g_in_grid = saved_grid;
        g_grid_fn = nullptr;
        g_grid_armed = false;
        g_cur_ranges = saved;
        g_cur_mine.swap(saved_mine);
        release_dropped();
    }
    Py_DECREF(rl);
    Py_DECREF(full);
    {
        std::lock_guard<std::mutex> lock(g_mu);
        g_launch_ns += static_cast<unsigned long>(ns);
    }
    recheck();
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
    PyObject *stale = nullptr; // a launch's error from outside a checked window (a timed call's)
    {
        std::lock_guard<std::mutex> lock(g_mu);
        std::swap(stale, g_launch_error);
    }
    Py_XDECREF(stale);
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
    PyObject *err = nullptr;
    {
        std::lock_guard<std::mutex> lock(g_mu);
        if (g_probe_told)
            tamper("the probe's flag was asked for twice");
        g_probe_told = true;
        std::swap(err, g_launch_error);
    }
    if (err != nullptr) { // the window's interpreted launch raised: the harness fails the call with it
        PyErr_SetObject(reinterpret_cast<PyObject *>(Py_TYPE(err)), err);
        Py_DECREF(err);
        return nullptr;
    }
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

PyMethodDef kMethods[] = {
    {"init", w_init, METH_VARARGS, "init(fd, answer_path, ext_dirs, kernelbench, interpreted)"},
    {"neuter", w_neuter, METH_VARARGS,
     "neuter(c_function, mode, name): 0 always, 1 in the forward, 2 also to the answer, 3 raw access, 4 but to "
     "the harness"},
    {"wrap_extension", w_wrap_extension, METH_VARARGS, "wrap_extension(pybind_function) -> patched"},
    {"set_poisoner", w_set_poisoner, METH_VARARGS, "set_poisoner(callable(args, kwargs, result, poison, protect))"},
    {"snapshot", w_snapshot, METH_VARARGS,
     "snapshot(dict, fixed=False): its items (and with fixed its size) must hold at every window's end"},
    {"phase", w_phase, METH_VARARGS, "phase(0 free | 1 harness | 2 forward)"},
    {"callee", w_callee, METH_VARARGS,
     "callee(kind, kernel): a device function triton compiles (0) or the interpreter calls (1): the answer's or "
     "triton's own, else refused"},
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
    {"route_op_dk", w_route_op_dk, METH_VARARGS, "route_op_dk(f): an OpOverload's _op_dk refused in the forward"},
    {"shut_raw", w_shut_raw, METH_VARARGS,
     "shut_raw(code_roots, driver_roots, client_roots): triton's interpreter, made code, native loads, /proc/self/mem"},
    {"mappings", w_mappings, METH_VARARGS,
     "mappings([buffer], tensor_type): the harness's own mappings, the type write copies (before init)"},
    {"map_shared", w_map_shared, METH_VARARGS, "map_shared(fd, size) -> memoryview of a shared mapping (before init)"},
    {"inputs", w_inputs, METH_VARARGS, "inputs(live): the call's inputs exist, or are gone (the harness's call)"},
    {"seed", w_seed, METH_VARARGS, "seed(nonce, wire): torch seeded with a sealed check's seed (the harness's call)"},
    {"write", w_write, METH_VARARGS, "write(mapping, tensors, offsets): the data path's write, once after a forward"},
    {"trust", w_trust, METH_VARARGS,
     "trust(modules, callers, data_path): their code (and the caller's stack) runs as the harness's"},
    {"guard_data", w_guard_data, METH_VARARGS,
     "guard_data(functions, names, tensor_types, tensor_base, plain_types) -> tensor types patched"},
    {"demangle", w_demangle, METH_VARARGS, "demangle(symbol) -> name as profilers show it"},
    {nullptr, nullptr, 0, nullptr}};

PyModuleDef kModule = {PyModuleDef_HEAD_INIT, "_sieve_wall", nullptr, -1, kMethods, nullptr, nullptr, nullptr, nullptr};

} // namespace sieve_wall

PyMODINIT_FUNC PyInit__sieve_wall()
{
    return PyModule_Create(&sieve_wall::kModule);
}
