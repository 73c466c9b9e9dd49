// What the answer's Triton kernel calls (docs/VERIFIER.md, "What the answer's kernel calls", round 40). The launch
// hook judges the kernel object launched (sieve_wall.cpp answer_kernel); a @triton.jit function called inside it is
// a device function, which never goes through run: torch's whole softmax kernel called from a one-line kernel of the
// answer's did the work as the answer's launch (redteam/wall2 h_r39_device_call_torch_kernel). A reading of the
// kernel's names cannot be the boundary (round 40's red team reached torch's kernel through slots, metaclasses,
// C objects, torch's own __getattr__, getattr by a computed name ...), so the wall judges each device function where
// triton takes it:
//  - on the GPU, every function triton compiles goes through a CodeGenerator made for it (its jit_fn: the kernel
//    itself and each callee, whatever reached it); hooks.py routes CodeGenerator.__init__ through callee(0, jit_fn);
//  - under the interpreter, a device function runs through InterpretedFunction.__call__, routed through
//    callee(1, kernel); and Python that is no kernel object (torch's kernel's own `fn`, called as a plain function)
//    reaches memory only through the interpreter's loads and stores, which the gate (ffi.cpp gated_call) lets by only
//    for code of the answer's file or triton's (interpreted_caller_ok).
// A callee must be exactly triton's kernel class and the answer's (answer_kernel) or one of triton's own kernels as
// it was at launch_setup (tl.softmax, tl.sum ...). The wrappers are in the classes held by classes_hold and their
// closures are compared at every launch, before and after it; a launch's arguments may run no code of the answer's
// inside triton's launch (argument_ok), where it could take the wrappers out and put them back.
#include "wall.h"

namespace sieve_wall {

namespace {

PyObject *g_iface = nullptr; // triton.runtime.jit.KernelInterface (the kernel classes, Autotuner, Heuristics)
PyObject *g_enum = nullptr;  // enum.Enum: an IntEnum constexpr of the answer's is an argument like an int
std::string g_triton_dir;    // triton's package folder, ending in '/'
std::string g_numpy_dir;     // numpy's, the same
std::string g_stdlib_dir;    // Python's standard library's
std::string g_harness_dir;   // the worker's package (sieve_worker: the launch hook's bounds check wraps the loads)

// triton's own kernel objects at launch_setup: fn, fn's code, and the src (JITFunction) or rewriter
// (InterpretedFunction) they had; a callee found so is let by, one changed is refused
struct Own
{
    PyObject *fn, *code, *src;
};
std::unordered_map<PyObject *, Own> g_own;

// the classes a launch's arguments may have besides the C types in plain_type: torch's tensor and parameter
// classes and every class triton's modules held at launch_setup (dtypes, constexpr, tensor descriptors); an object
// of another Python class runs the answer's code inside triton's launch (hasattr(arg, "data_ptr") on it)
std::unordered_set<PyObject *> g_arg_types;

// the device-call wrappers (hooks.py) and their closure cells' contents at launch_setup
std::vector<std::pair<PyObject *, PyObject *>> g_wrapper_cells;

// what the interpreter's rewriter reads the answer's kernel source through (inspect, linecache, compile): each
// (module dict, name, value) at launch_setup; and linecache's cache, whose entry for the answer's file must be the
// file's own lines (an entry planted with no mtime compiled torch's code as the answer's kernel: round 40's x7)
std::vector<std::tuple<PyObject *, std::string, PyObject *>> g_source_path;
PyObject *g_linecache = nullptr; // the linecache module

// triton's knobs whose functions it calls inside a launch (before the compile, after it, around the launch): each
// (name, value) at launch_setup; one set by the answer runs its code inside triton's launch, where it could take
// the device-call hooks out for the compile and put them back
PyObject *g_runtime_knobs = nullptr;
std::vector<std::pair<std::string, PyObject *>> g_knob_hooks;
std::string g_answer_raw; // the answer's file as read at launch_setup

PyObject *item(PyObject *d, const char *k)
{
    return d != nullptr && PyDict_Check(d) ? PyDict_GetItemString(d, k) : nullptr;
}

std::string file_of(PyObject *fn)
{
    PyObject *f = fn != nullptr && PyFunction_Check(fn)
                      ? reinterpret_cast<PyCodeObject *>(PyFunction_GET_CODE(fn))->co_filename
                      : nullptr;
    const char *s = f != nullptr && PyUnicode_Check(f) ? PyUnicode_AsUTF8(f) : nullptr;
    PyErr_Clear();
    return s != nullptr ? s : "?";
}

// a file as the verdict names it: past site-packages/ (torch/sparse/_triton_ops.py)
std::string shown(const std::string &f)
{
    const size_t at = f.rfind("site-packages/");
    return at == std::string::npos ? f : f.substr(at + 14);
}

std::string name_of(PyObject *fn)
{
    PyObject *q =
        fn != nullptr && PyFunction_Check(fn) ? reinterpret_cast<PyFunctionObject *>(fn)->func_qualname : nullptr;
    const char *s = q != nullptr && PyUnicode_Check(q) ? PyUnicode_AsUTF8(q) : nullptr;
    PyErr_Clear();
    return s != nullptr ? s : (fn != nullptr ? Py_TYPE(fn)->tp_name : "?");
}

std::string folder_of(const char *module)
{
    PyObject *m = PyImport_ImportModule(module);
    PyObject *f = m != nullptr ? PyObject_GetAttrString(m, "__file__") : nullptr;
    const char *s = f != nullptr && PyUnicode_Check(f) ? PyUnicode_AsUTF8(f) : nullptr;
    std::string out = s != nullptr ? s : "";
    Py_XDECREF(f);
    Py_XDECREF(m);
    PyErr_Clear();
    return out.empty() ? out : out.substr(0, out.rfind('/') + 1);
}

// Whether one of triton's own kernels is as it was at launch_setup (kind 1: its rewriter the one that compiles its
// fn; its cache entry was dropped at the launch's start, drop_own_rewritten).
bool own_holds(int kind, PyObject *k, const Own &o)
{
    PyObject *d = PyObject_GenericGetDict(k, nullptr);
    PyErr_Clear();
    bool ok = d != nullptr && item(d, "fn") == o.fn && PyFunction_Check(o.fn) && PyFunction_GET_CODE(o.fn) == o.code;
    std::string what;
    if (ok && kind == 1)
        ok = item(d, "rewriter") == o.src && interpreted_runs(k, d, o.fn, false);
    if (ok && kind == 0) {
        // the same text (a version's src property may make a new string each time), an exact str: no __eq__ runs
        PyObject *s = src_of(k);
        ok = s != nullptr && PyUnicode_CheckExact(s) && PyUnicode_CheckExact(o.src) &&
             (s == o.src || PyUnicode_Compare(s, o.src) == 0) && !shadows(k, d, &what);
        Py_XDECREF(s);
    }
    Py_XDECREF(d);
    PyErr_Clear();
    return ok;
}

// C types whose objects run no Python when triton reads them: numbers, strings, None, torch's dtype, device and Size
bool plain_type(PyTypeObject *t)
{
    if (t == &PyLong_Type || t == &PyFloat_Type || t == &PyBool_Type || t == Py_TYPE(Py_None) || t == &PyUnicode_Type ||
        t == &PyBytes_Type || t == &PyComplex_Type)
        return true;
    const char *n = t->tp_name;
    return (t->tp_flags & Py_TPFLAGS_HEAPTYPE) == 0 && n != nullptr &&
           (std::strcmp(n, "torch.dtype") == 0 || std::strcmp(n, "torch.device") == 0 ||
            std::strcmp(n, "torch.Size") == 0 || std::strncmp(n, "numpy.", 6) == 0);
}

// an Enum member of a class whose methods are none of the answer's (an IntEnum constexpr)
bool plain_enum(PyTypeObject *t)
{
    if (g_enum == nullptr || !PyType_Check(g_enum) || !PyType_IsSubtype(t, reinterpret_cast<PyTypeObject *>(g_enum)))
        return false;
    PyObject *mro = t->tp_mro;
    for (Py_ssize_t i = 0; mro != nullptr && i < PyTuple_GET_SIZE(mro); ++i) {
        PyObject *d = reinterpret_cast<PyTypeObject *>(PyTuple_GET_ITEM(mro, i))->tp_dict;
        Py_ssize_t pos = 0;
        PyObject *k, *v;
        while (d != nullptr && PyDict_Next(d, &pos, &k, &v)) {
            PyObject *f = nullptr; // a new reference to the function a property or method wrapper holds
            if (PyObject_TypeCheck(v, &PyProperty_Type))
                f = PyObject_GetAttrString(v, "fget");
            else if (PyObject_TypeCheck(v, &PyClassMethod_Type) || PyObject_TypeCheck(v, &PyStaticMethod_Type))
                f = PyObject_GetAttrString(v, "__func__");
            PyErr_Clear();
            const bool mine = in_answer(v) || in_answer(f);
            Py_XDECREF(f);
            if (mine)
                return false;
        }
    }
    return true;
}

// Whether a launch argument runs no Python of the answer's when triton reads it; else *what names its type.
bool argument_ok(PyObject *v, int depth, std::string *what)
{
    if (v == nullptr || depth > 8)
        return true;
    PyTypeObject *t = Py_TYPE(v);
    if (PyTuple_CheckExact(v) || PyList_CheckExact(v)) {
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(v); ++i)
            if (!argument_ok(PySequence_Fast_GET_ITEM(v, i), depth + 1, what))
                return false;
        return true;
    }
    if (plain_type(t) || PyFunction_Check(v) || plain_enum(t) ||
        (g_iface != nullptr && PyType_IsSubtype(t, reinterpret_cast<PyTypeObject *>(g_iface))))
        return true; // a grid function runs after the compile; a kernel passed as a constexpr is judged as a callee
    if (g_arg_types.count(reinterpret_cast<PyObject *>(t)) == 0) {
        *what = t->tp_name;
        return false;
    }
    PyObject **dp = _PyObject_GetDictPtr(v); // a tensor descriptor's base, shape ...
    PyObject *d = dp != nullptr && *dp != nullptr && PyDict_Check(*dp) ? *dp : nullptr;
    Py_ssize_t pos = 0;
    PyObject *k, *x;
    while (d != nullptr && PyDict_Next(d, &pos, &k, &x))
        if (!argument_ok(x, depth + 1, what))
            return false;
    return true;
}

void keep_arg_type(PyObject *t)
{
    if (t != nullptr && PyType_Check(t) && g_arg_types.insert(t).second)
        Py_INCREF(t);
}

void keep_source_path(const char *module, std::initializer_list<const char *> names)
{
    PyObject *m = PyImport_ImportModule(module);
    PyObject *d = m != nullptr ? PyModule_GetDict(m) : nullptr;
    for (const char *n : names) {
        PyObject *v = item(d, n);
        if (v == nullptr)
            continue;
        Py_INCREF(d);
        Py_INCREF(v);
        g_source_path.emplace_back(d, n, v);
    }
    if (std::strcmp(module, "linecache") == 0 && m != nullptr)
        g_linecache = m; // the reference kept
    else
        Py_XDECREF(m);
    PyErr_Clear();
}

} // namespace

// Drops the interpreter's cached rewrite of each of triton's own kernels (cache: InterpretedFunction.rewritten_fn), at
// the start of every interpreted launch of the answer's: each is rewritten from its own text when the launch first
// calls it, with the rewriter own_holds checks, so no function the answer put in the cache for one runs.
void drop_own_rewritten(PyObject *cache)
{
    if (cache == nullptr || !PyDict_CheckExact(cache))
        return;
    for (const auto &own : g_own)
        if (PyDict_Contains(cache, own.second.fn) == 1)
            PyDict_DelItem(cache, own.second.fn);
    PyErr_Clear();
}

void callees_setup(const std::string &answer_raw)
{
    g_answer_raw = answer_raw;
    PyObject *jit = PyImport_ImportModule("triton.runtime.jit");
    g_iface = jit != nullptr ? PyObject_GetAttrString(jit, "KernelInterface") : nullptr;
    Py_XDECREF(jit);
    PyObject *en = PyImport_ImportModule("enum");
    g_enum = en != nullptr ? PyObject_GetAttrString(en, "Enum") : nullptr;
    Py_XDECREF(en);
    PyErr_Clear();
    g_triton_dir = folder_of("triton");
    g_numpy_dir = folder_of("numpy");
    g_stdlib_dir = folder_of("os");
    g_harness_dir = folder_of("sieve_worker"); // its __init__.py's folder: the package and its subpackages
    PyObject *torch = PyImport_ImportModule("torch");
    if (torch != nullptr) {
        PyObject *t = PyObject_GetAttrString(torch, "Tensor");
        keep_arg_type(t);
        Py_XDECREF(t);
        Py_DECREF(torch);
    }
    PyErr_Clear();
    PyObject *par = PyImport_ImportModule("torch.nn.parameter");
    for (const char *c : {"Parameter", "Buffer"}) {
        PyObject *t = par != nullptr ? PyObject_GetAttrString(par, c) : nullptr;
        keep_arg_type(t);
        Py_XDECREF(t);
        PyErr_Clear();
    }
    Py_XDECREF(par);
    for (const char *m : {"triton.tools.tensor_descriptor", "triton.tools.experimental_descriptor"})
        Py_XDECREF(PyImport_ImportModule(m));
    PyErr_Clear();
    // the code generator whose __init__ hooks.py routed through callee() before this: its class held as it is now
    PyObject *cg = PyImport_ImportModule("triton.compiler.code_generator");
    PyObject *cls = cg != nullptr ? PyObject_GetAttrString(cg, "CodeGenerator") : nullptr;
    keep_class(cls);
    // the wrappers' closures: compared at every launch (device_calls_hold)
    PyObject *call_cls = g_run_cls[1];
    for (PyObject *owner : {cls, call_cls}) {
        if (owner == nullptr || !PyType_Check(owner))
            continue;
        PyObject *w = item(reinterpret_cast<PyTypeObject *>(owner)->tp_dict, owner == cls ? "__init__" : "__call__");
        PyObject *cells = w != nullptr && PyFunction_Check(w) ? PyFunction_GET_CLOSURE(w) : nullptr;
        for (Py_ssize_t i = 0; cells != nullptr && PyTuple_Check(cells) && i < PyTuple_GET_SIZE(cells); ++i) {
            PyObject *cell = PyTuple_GET_ITEM(cells, i);
            if (!PyCell_Check(cell))
                continue;
            Py_INCREF(cell);
            Py_XINCREF(PyCell_GET(cell));
            g_wrapper_cells.emplace_back(cell, PyCell_GET(cell));
        }
    }
    Py_XDECREF(cls);
    Py_XDECREF(cg);
    PyErr_Clear();
    PyObject *kn = PyImport_ImportModule("triton.knobs");
    g_runtime_knobs = kn != nullptr ? PyObject_GetAttrString(kn, "runtime") : nullptr;
    Py_XDECREF(kn);
    for (const char *n : {"jit_cache_hook", "jit_post_compile_hook", "launch_enter_hook", "launch_exit_hook"}) {
        PyObject *v = g_runtime_knobs != nullptr ? PyObject_GetAttrString(g_runtime_knobs, n) : nullptr;
        if (v != nullptr)
            g_knob_hooks.emplace_back(n, v); // the reference kept
        PyErr_Clear();
    }
    // under the interpreter, what its rewriter reads a kernel's source through
    if (g_run_cls[1] != nullptr) {
        keep_source_path("linecache", {"cache", "getlines", "checkcache", "updatecache", "getline", "lazycache"});
        keep_source_path("inspect", {"getsourcelines", "findsource", "getsourcefile", "getfile", "getmodule",
                                     "getblock", "unwrap", "getabsfile", "linecache"});
        keep_source_path("builtins", {"compile", "exec"});
        keep_source_path("ast", {"parse", "fix_missing_locations", "increment_lineno"});
        keep_source_path("textwrap", {"dedent"});
        PyObject *it = PyImport_ImportModule("triton.runtime.interpreter");
        PyObject *tr = it != nullptr ? PyObject_GetAttrString(it, "ASTTransformer") : nullptr;
        keep_class(tr);
        Py_XDECREF(tr);
        Py_XDECREF(it);
        PyErr_Clear();
    }
    // triton's own kernels and classes: every kernel object and class a module of triton's holds now
    PyObject *mods = PyImport_GetModuleDict();
    Py_ssize_t pos = 0;
    PyObject *name, *mod;
    while (mods != nullptr && PyDict_Next(mods, &pos, &name, &mod)) {
        const char *n = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : nullptr;
        if (n == nullptr || !PyModule_Check(mod) ||
            (std::strcmp(n, "triton") != 0 && std::strncmp(n, "triton.", 7) != 0))
            continue;
        PyObject *md = PyModule_GetDict(mod);
        Py_ssize_t p2 = 0;
        PyObject *k, *v;
        while (PyDict_Next(md, &p2, &k, &v)) {
            if (PyType_Check(v))
                keep_arg_type(v);
            const int kind = reinterpret_cast<PyObject *>(Py_TYPE(v)) == g_run_cls[0]   ? 0
                             : reinterpret_cast<PyObject *>(Py_TYPE(v)) == g_run_cls[1] ? 1
                                                                                        : -1;
            if (kind < 0 || g_own.count(v) > 0)
                continue;
            PyObject *d = PyObject_GenericGetDict(v, nullptr);
            PyObject *fn = item(d, "fn");
            PyObject *src = kind == 0 ? src_of(v) : item(d, "rewriter"); // kind 0: a new reference
            if (kind == 1)
                Py_XINCREF(src);
            if (fn != nullptr && PyFunction_Check(fn) && src != nullptr) {
                PyObject *code = PyFunction_GET_CODE(fn);
                Py_INCREF(v);
                Py_INCREF(fn);
                Py_INCREF(code);
                g_own.emplace(v, Own{fn, code, src});
            } else {
                Py_XDECREF(src);
            }
            Py_XDECREF(d);
            PyErr_Clear();
        }
    }
    PyErr_Clear();
}

// Whether the device-call wrappers' closures hold what they held at launch_setup (their functions are in classes
// classes_hold compares); else *what says so.
bool device_calls_hold(std::string *what)
{
    for (const auto &[cell, contents] : g_wrapper_cells)
        if (PyCell_GET(cell) != contents) {
            *what = "a closure of the wall's device-call hook";
            return false;
        }
    return true;
}

// "a Triton kernel not defined in the answer's file (NAME from FILE)", read from the kernel object's dict (no property
// of the answer's runs): what the verdict says of a foreign kernel launched or called.
std::string foreign_kernel(PyObject *k)
{
    PyObject *d = k != nullptr && k != Py_None ? PyObject_GenericGetDict(k, nullptr) : nullptr;
    PyErr_Clear();
    PyObject *kf = item(d, "fn");
    const std::string out =
        "a Triton kernel not defined in the answer's file (" + name_of(kf) + " from " + shown(file_of(kf)) + ")";
    Py_XDECREF(d);
    return out;
}

// Under the interpreter: whether the rewriter would read the answer's file as it is (linecache's entry, and the
// functions it reads through); else *what names what changed.
bool rewriter_sources_hold(std::string *what)
{
    for (const auto &[d, n, v] : g_source_path)
        if (item(d, n.c_str()) != v) {
            *what = "the function " + n + " the interpreter reads a kernel's source through";
            return false;
        }
    PyObject *cache = g_linecache != nullptr ? item(PyModule_GetDict(g_linecache), "cache") : nullptr;
    PyObject *key = PyUnicode_FromString(g_answer.c_str());
    PyObject *entry =
        cache != nullptr && PyDict_Check(cache) && key != nullptr ? PyDict_GetItemWithError(cache, key) : nullptr;
    Py_XDECREF(key);
    PyErr_Clear();
    if (entry == nullptr)
        return true; // linecache reads the file itself
    PyObject *lines = PyTuple_Check(entry) && PyTuple_GET_SIZE(entry) == 4 ? PyTuple_GET_ITEM(entry, 2) : nullptr;
    std::string text;
    bool ok = lines != nullptr && PyList_CheckExact(lines);
    for (Py_ssize_t i = 0; ok && i < PyList_GET_SIZE(lines); ++i) {
        PyObject *l = PyList_GET_ITEM(lines, i);
        Py_ssize_t n = 0;
        const char *p = PyUnicode_CheckExact(l) ? PyUnicode_AsUTF8AndSize(l, &n) : nullptr;
        ok = p != nullptr;
        if (ok)
            text.append(p, static_cast<size_t>(n));
    }
    PyErr_Clear();
    if (ok && text == g_answer_raw)
        return true;
    *what = "linecache's lines for the answer's file are not the file's";
    return false;
}

// callee(kind, obj): a device function triton compiles (kind 0: a CodeGenerator's jit_fn) or the interpreter calls
// (kind 1); in the free phase and the forward it must be the answer's kernel or triton's own, or the call is refused
// (a RuntimeError, recorded as the answer's: TORCH_OP_AT_RUNTIME).
PyObject *w_callee(PyObject *, PyObject *args)
{
    int kind;
    PyObject *obj;
    if (!PyArg_ParseTuple(args, "iO", &kind, &obj))
        return nullptr;
    const int phase = g_phase.load();
    if (!g_ready || (phase != kFree && phase != kForward) || kind < 0 || kind > 1)
        Py_RETURN_NONE;
    std::string why;
    auto own = g_own.find(obj);
    if (own != g_own.end()) {
        if (own_holds(kind, obj, own->second))
            Py_RETURN_NONE;
        why = "triton's own kernel " + name_of(own->second.fn) + ", changed after the wall started";
    } else if (PyObject *fn = obj != Py_None ? answer_kernel(kind, obj) : nullptr) {
        PyErr_Clear();
        Py_DECREF(fn);
        std::string what;
        if (kind == 0 || rewriter_sources_hold(&what))
            Py_RETURN_NONE;
        why = what;
    } else {
        PyErr_Clear();
        why = foreign_kernel(obj) + ", called from the answer's kernel";
    }
    const std::string where = python_where();
    {
        std::lock_guard<std::mutex> lock(g_mu);
        record(why.c_str(), phase, false, where.empty() ? "no line of the answer on the stack" : where);
    }
    PyErr_SetString(PyExc_RuntimeError, ("sieve runtime wall: refused: " + why).c_str());
    return nullptr;
}

// Whether the Python code that reached the interpreter's load or store is the answer's: the innermost frame outside
// triton, numpy and the standard library must be of the answer's file. torch's kernel's own `fn`, called as a plain
// function from the answer's kernel, loads through the same interpreter (round 40's x4, h_r40_callee_plain_fn).
// The worker's own frames (its bounds check wraps the interpreter's loads) are passed over like triton's.
bool interpreted_caller_ok(std::string *file)
{
    // each code object's class (0: triton's, numpy's, the standard library's or the worker's, passed over; 1: the
    // answer's; 2: another file's), kept with the code object held: a load runs this for every access
    static std::unordered_map<PyCodeObject *, char> seen;
    bool ok = false;
    bool decided = false;
    for_each_frame(kWholeStack, [&](PyFrameObject *, PyCodeObject *code, const char *f, int) {
        auto it = seen.find(code);
        if (it != seen.end() && it->second == 0)
            return true;
        if (it != seen.end() && it->second == 1) {
            ok = true;
            decided = true;
            return false;
        }
        const std::string s = f != nullptr ? f : "";
        if (!s.empty() && ((!g_triton_dir.empty() && s.rfind(g_triton_dir, 0) == 0) ||
                           (!g_numpy_dir.empty() && s.rfind(g_numpy_dir, 0) == 0) ||
                           (!g_harness_dir.empty() && s.rfind(g_harness_dir, 0) == 0) ||
                           (!g_stdlib_dir.empty() && s.rfind(g_stdlib_dir, 0) == 0 &&
                            s.find("site-packages/") == std::string::npos))) {
            Py_INCREF(code);
            seen.emplace(code, 0);
            return true;
        }
        ok = s == g_answer;
        if (ok) {
            Py_INCREF(code);
            seen.emplace(code, 1);
        }
        *file = shown(s);
        decided = true;
        return false;
    });
    return decided && ok;
}

// The launch's own checks of the answer's kernel: its arguments and its pre-run hooks (code of the answer's inside
// triton's run, before the compile) and, under the interpreter, the rewriter's sources. "" when all hold.
std::string launch_refused(int kind, PyObject *kself, PyObject *fn, PyObject *args, PyObject *kwargs)
{
    std::string what;
    bool ok = argument_ok(args, 0, &what);
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    while (ok && PyDict_Next(kwargs, &pos, &k, &v))
        ok = argument_ok(v, 0, &what);
    if (!ok)
        return "an argument of the class " + what + " passed to " + name_of(fn) +
               " (code of its own would run inside triton's launch)";
    PyObject *d = PyObject_GenericGetDict(kself, nullptr);
    PyObject *hooks = item(d, "pre_run_hooks");
    const bool hooked = hooks != nullptr && (!PyList_Check(hooks) || PyList_GET_SIZE(hooks) > 0);
    Py_XDECREF(d);
    PyErr_Clear();
    if (hooked)
        return "a pre-run hook on " + name_of(fn) + " (code of its own would run inside triton's launch)";
    for (const auto &[n, was] : g_knob_hooks) {
        PyObject *now = PyObject_GetAttrString(g_runtime_knobs, n.c_str());
        Py_XDECREF(now);
        PyErr_Clear();
        if (now != was)
            return "triton's knob runtime." + n + " set (code of its own would run inside triton's launch)";
    }
    if (kind == 1 && !rewriter_sources_hold(&what))
        return what;
    return "";
}

} // namespace sieve_wall
