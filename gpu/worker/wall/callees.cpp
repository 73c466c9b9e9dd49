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

// What an interpreted kernel body of the answer's may call (the kernel watch, a profile function of the wall's own
// while an interpreted launch of the answer's runs): Python code triton's and the worker's modules held at
// launch_setup (every function's and method's code, and the code nested in it), by identity, so that code compiled
// later under one of their file names is none of it; and a builtin of Python's that reads and makes plain values.
std::unordered_set<PyObject *> g_lib_code;    // code of triton's and the worker's modules at launch_setup
std::unordered_set<PyObject *> g_std_code;    // code of numpy's and the standard library's modules then
std::unordered_set<PyObject *> g_kernel_code; // the answer's kernels' code: launched, called, held as kernels by its
                                              // module, and what the rewriter made from their text (kernel_calls)
std::unordered_set<PyObject *> g_fresh_code;  // code of triton's own kernels the wall rewrote in this launch
PyObject *g_rewriter_exec = nullptr;          // FunctionRewriter._compile_and_exec's code (it execs a def)
bool g_wall_rewriting = false;                // the wall has a kernel of triton's own rewritten (own_fresh)
PyObject *g_builtins = nullptr;               // the builtins module
PyObject *g_math = nullptr;                   // the math module

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

// Whether a numpy object (an exact type of numpy's: its attributes are numpy's C) has a dtype that holds Python
// objects (an object dtype, or a structured one with an object field); an error reading it counts as holding.
bool numpy_holds_objects(PyObject *v)
{
    PyObject *dt = PyObject_GetAttrString(v, "dtype");
    if (dt == nullptr) {
        PyErr_Clear();
        return false; // a dtype, a ufunc ...: no values of its own
    }
    PyObject *h = PyObject_GetAttrString(dt, "hasobject");
    const int holds = h != nullptr ? PyObject_IsTrue(h) : 1;
    Py_XDECREF(h);
    Py_DECREF(dt);
    PyErr_Clear();
    return holds != 0;
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
    if (plain_type(t) && std::strncmp(t->tp_name, "numpy.", 6) == 0 && numpy_holds_objects(v)) {
        // a numpy array or structured scalar with object fields holds Python objects: triton's interpreter stored a
        // tile in one (tl.multiple_of's _set_attr on a tensor of the answer's, redteam/wall2
        // h_r48_multiple_of_attr_sink), which the forward read after the launch
        *what = std::string(t->tp_name) + " holding Python objects";
        return false;
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

// The interpreter's cache of rewritten functions (InterpretedFunction.rewritten_fn, keyed by each kernel's fn). A key
// of the answer's making that is no function could compare equal to a kernel's fn only when triton looks it up and
// survive a drop by equality (redteam/wall2 h_r42_own_cache_two_faced_key, h_r42_answer_cache_two_faced_key): every
// key that is not exactly a function goes, whose hash and equality are its identity, so no drop or lookup after it runs
// Python of the answer's. The entries taken out are kept until the launch ends (a __del__ of theirs runs then, not
// inside the wall's check). Triton's own device functions are rewritten for the launch by the wall (own_fresh).
std::vector<PyObject *> g_dropped;                  // entries taken out of the cache, released at the launch's end
std::unordered_map<PyObject *, PyObject *> g_fresh; // triton's own kernel's fn -> the function the wall had rewritten

void keep_only_functions(PyObject *cache)
{
    if (cache == nullptr || !PyDict_CheckExact(cache))
        return;
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    bool foreign = false;
    while (!foreign && PyDict_Next(cache, &pos, &k, &v))
        foreign = !PyFunction_Check(k);
    if (!foreign)
        return;
    std::vector<std::pair<PyObject *, PyObject *>> kept;
    pos = 0;
    while (PyDict_Next(cache, &pos, &k, &v)) {
        Py_INCREF(k);
        Py_INCREF(v);
        if (PyFunction_Check(k)) {
            kept.emplace_back(k, v);
        } else {
            g_dropped.push_back(k);
            g_dropped.push_back(v);
        }
    }
    PyDict_Clear(cache); // the references to all are held: no __del__ runs here
    for (auto &[kk, vv] : kept) {
        PyDict_SetItem(cache, kk, vv);
        Py_DECREF(kk);
        Py_DECREF(vv);
    }
    PyErr_Clear();
}

// the cache's entry for the function fn (borrowed), found by identity, or nullptr
PyObject *entry_of(PyObject *cache, PyObject *fn)
{
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    while (cache != nullptr && PyDict_CheckExact(cache) && PyDict_Next(cache, &pos, &k, &v))
        if (k == fn)
            return v;
    return nullptr;
}

void drop_entry(PyObject *cache, PyObject *fn)
{
    if (PyObject *v = entry_of(cache, fn)) {
        Py_INCREF(fn);
        Py_INCREF(v);
        g_dropped.push_back(fn);
        g_dropped.push_back(v);
        PyDict_DelItem(cache, fn); // only functions are keys now: no Python runs
        PyErr_Clear();
    }
}

// linecache's entry for a file dropped (triton's own: linecache reads the file again, which the candidate cannot write)
void drop_lines(PyObject *fn)
{
    PyObject *cache = g_linecache != nullptr ? item(PyModule_GetDict(g_linecache), "cache") : nullptr;
    PyObject *file = fn != nullptr && PyFunction_Check(fn)
                         ? reinterpret_cast<PyCodeObject *>(PyFunction_GET_CODE(fn))->co_filename
                         : nullptr;
    if (cache != nullptr && PyDict_CheckExact(cache) && file != nullptr && PyUnicode_CheckExact(file) &&
        PyDict_Contains(cache, file) == 1)
        PyDict_DelItem(cache, file);
    PyErr_Clear();
}

// At the start of every interpreted launch of the answer's: the cache holds functions' entries only, and none of
// triton's own kernels; each is rewritten for the launch by the wall when the launch first calls it (own_fresh).
void drop_own_rewritten(PyObject *cache)
{
    if (cache == nullptr || !PyDict_CheckExact(cache))
        return;
    keep_only_functions(cache);
    for (const auto &own : g_own)
        drop_entry(cache, own.second.fn);
    for (auto &[fn, f] : g_fresh)
        Py_DECREF(f);
    g_fresh.clear();
    for (PyObject *c : g_fresh_code)
        Py_DECREF(c);
    g_fresh_code.clear();
}

// At the launch's end: what the cache's drops took out is released (a __del__ of the answer's runs here, outside it).
void release_dropped()
{
    std::vector<PyObject *> d;
    d.swap(g_dropped);
    for (PyObject *o : d)
        Py_DECREF(o);
}

namespace {

// A device call of one of triton's own kernels (k) under the interpreter: its cache entry must be the function the
// wall had the kernel's rewriter make in this launch, else it is made now, from the kernel's own file (linecache's
// entry dropped first). A plant after the launch's drop, from the grid function (redteam/wall2
// h_r42_own_cache_plant_in_grid) or between two calls, is replaced before it runs. False when the rewrite failed.
bool own_fresh(PyObject *k, const Own &o)
{
    PyObject *cache = item(reinterpret_cast<PyTypeObject *>(Py_TYPE(k))->tp_dict, "rewritten_fn");
    if (cache == nullptr || !PyDict_CheckExact(cache))
        return false;
    keep_only_functions(cache);
    PyObject *now = entry_of(cache, o.fn);
    auto f = g_fresh.find(o.fn);
    if (now != nullptr && f != g_fresh.end() && now == f->second)
        return true;
    drop_entry(cache, o.fn);
    drop_lines(o.fn);
    g_wall_rewriting = true; // the rewriter's exec of the def, inside the kernel's run, is the wall's own doing
    PyObject *made = PyObject_CallMethod(k, "rewrite", nullptr); // triton's own method: the class is held
    g_wall_rewriting = false;
    if (made == nullptr) {
        PyErr_Clear();
        return false;
    }
    if (f != g_fresh.end()) {
        Py_DECREF(f->second);
        f->second = made;
    } else {
        g_fresh.emplace(o.fn, made);
    }
    return entry_of(cache, o.fn) == made;
}

// code and the code nested in it
std::unordered_set<PyObject *> *g_keep_into = &g_lib_code; // the set keep_code fills

bool g_keep_std_files = false; // keep_code keeps only code of numpy's and the standard library's files

bool std_file(const std::string &f)
{
    return (!g_numpy_dir.empty() && f.rfind(g_numpy_dir, 0) == 0) ||
           (!g_stdlib_dir.empty() && f.rfind(g_stdlib_dir, 0) == 0 && f.find("site-packages/") == std::string::npos);
}

void keep_code(PyObject *code, int depth)
{
    if (code == nullptr || !PyCode_Check(code) || depth > 16 || g_lib_code.count(code) > 0)
        return;
    if (g_keep_std_files) {
        const char *f = PyUnicode_AsUTF8(reinterpret_cast<PyCodeObject *>(code)->co_filename);
        PyErr_Clear();
        if (f == nullptr || !std_file(f))
            return;
    }
    if (!g_keep_into->insert(code).second)
        return;
    Py_INCREF(code);
    PyObject *consts = reinterpret_cast<PyCodeObject *>(code)->co_consts;
    for (Py_ssize_t i = 0; consts != nullptr && PyTuple_Check(consts) && i < PyTuple_GET_SIZE(consts); ++i)
        keep_code(PyTuple_GET_ITEM(consts, i), depth + 1);
}

// the code of the answer's kernel, and the code nested in it (kernel_code)
void keep_kernel_code(PyObject *code)
{
    std::unordered_set<PyObject *> *was = g_keep_into;
    g_keep_into = &g_kernel_code;
    keep_code(code, 0);
    g_keep_into = was;
}

// the code of a module's value: a function, a method, a static or class method, a property's functions, a kernel
// object's function, and a class's own attributes (classes nested in classes too). C reads only: no Python runs.
void keep_codes_of(PyObject *v, int depth)
{
    if (v == nullptr || depth > 4)
        return;
    if (PyFunction_Check(v)) {
        keep_code(PyFunction_GET_CODE(v), 0);
        // the function a decorator wrapped (triton's builtins: functools.wraps' __wrapped__, closure cells)
        PyObject *fd = reinterpret_cast<PyFunctionObject *>(v)->func_dict;
        keep_codes_of(fd != nullptr && PyDict_Check(fd) ? PyDict_GetItemString(fd, "__wrapped__") : nullptr, depth + 1);
        PyObject *cells = PyFunction_GET_CLOSURE(v);
        for (Py_ssize_t i = 0; cells != nullptr && PyTuple_Check(cells) && i < PyTuple_GET_SIZE(cells); ++i) {
            PyObject *c = PyTuple_GET_ITEM(cells, i);
            PyObject *x = PyCell_Check(c) ? PyCell_GET(c) : nullptr;
            if (x != nullptr && (PyFunction_Check(x) || PyMethod_Check(x)))
                keep_codes_of(x, depth + 1);
        }
    } else if (PyMethod_Check(v)) {
        keep_codes_of(PyMethod_GET_FUNCTION(v), depth + 1);
    } else if (Py_IS_TYPE(v, &PyStaticMethod_Type) || Py_IS_TYPE(v, &PyClassMethod_Type) ||
               Py_IS_TYPE(v, &PyProperty_Type)) {
        for (const char *a : {"__func__", "fget", "fset", "fdel"}) {
            PyObject *f = PyObject_GetAttrString(v, a); // the C types' own members
            PyErr_Clear();
            if (f != nullptr && PyFunction_Check(f))
                keep_code(PyFunction_GET_CODE(f), 0);
            Py_XDECREF(f);
        }
    } else if (PyType_Check(v) && (reinterpret_cast<PyTypeObject *>(v)->tp_flags & Py_TPFLAGS_HEAPTYPE) != 0) {
        PyObject *d = reinterpret_cast<PyTypeObject *>(v)->tp_dict;
        Py_ssize_t pos = 0;
        PyObject *k, *x;
        while (d != nullptr && PyDict_Next(d, &pos, &k, &x))
            if (x != v)
                keep_codes_of(x, depth + 1);
        // its bases, which no module may hold (tokenize.TokenInfo's namedtuple base, with its __new__)
        PyObject *bases = reinterpret_cast<PyTypeObject *>(v)->tp_bases;
        for (Py_ssize_t i = 0; bases != nullptr && PyTuple_Check(bases) && i < PyTuple_GET_SIZE(bases); ++i)
            keep_codes_of(PyTuple_GET_ITEM(bases, i), depth + 1);
    } else if (std::strcmp(Py_TYPE(v)->tp_name, "numpy._ArrayFunctionDispatcher") == 0) {
        // numpy's functions (np.sum, np.copyto): a C object of numpy's that calls the Python it holds, its
        // implementation and its dispatcher, which no attribute shows and its traverse does not visit. Its fields
        // past the object's head are a vectorcall pointer and objects (numpy's PyArray_ArrayFunctionDispatcherObject);
        // each that is a function is kept (the type read at a field's address is readable for all of them)
        const Py_ssize_t size = Py_TYPE(v)->tp_basicsize;
        for (Py_ssize_t off = sizeof(PyObject); off + static_cast<Py_ssize_t>(sizeof(void *)) <= size;
             off += sizeof(void *)) {
            PyObject *f = *reinterpret_cast<PyObject **>(reinterpret_cast<char *>(v) + off);
            if (f != nullptr && Py_IS_TYPE(f, &PyFunction_Type))
                keep_codes_of(f, depth + 1);
        }
    } else if (g_run_cls[0] != nullptr && (reinterpret_cast<PyObject *>(Py_TYPE(v)) == g_run_cls[0] ||
                                           reinterpret_cast<PyObject *>(Py_TYPE(v)) == g_run_cls[1])) {
        PyObject *d = PyObject_GenericGetDict(v, nullptr);
        keep_codes_of(item(d, "fn"), depth + 1); // triton's interpreter calls a combine function's fn itself
        Py_XDECREF(d);
        PyErr_Clear();
    } else if ((Py_TYPE(v)->tp_flags & Py_TPFLAGS_HEAPTYPE) != 0 && !PyType_Check(v) &&
               _PyObject_GetDictPtr(v) != nullptr && *_PyObject_GetDictPtr(v) != nullptr &&
               PyDict_Check(*_PyObject_GetDictPtr(v))) {
        // an object of a class of Python's with functions in its own dict: a descriptor of a class's (enum's
        // property: Enum.value), a function's wrapper in a module (triton's constexpr_function: _pick_sum_dtype)
        PyObject *d = *_PyObject_GetDictPtr(v);
        Py_ssize_t pos = 0;
        PyObject *k, *x;
        while (PyDict_Next(d, &pos, &k, &x))
            if (PyFunction_Check(x))
                keep_codes_of(x, depth + 1);
    }
}

// the code of triton's and the worker's modules (own) or of numpy's and the standard library's (a module whose file is
// in their folders, or importlib's frozen ones) now: launch_setup, before the answer's file is loaded
void keep_modules(bool own_only)
{
    PyObject *mods = PyImport_GetModuleDict();
    Py_ssize_t pos = 0;
    PyObject *name, *mod;
    while (mods != nullptr && PyDict_Next(mods, &pos, &name, &mod)) {
        const char *n = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : nullptr;
        PyErr_Clear();
        if (n == nullptr || !PyModule_Check(mod))
            continue;
        const bool own = std::strcmp(n, "triton") == 0 || std::strncmp(n, "triton.", 7) == 0 ||
                         std::strcmp(n, "sieve_worker") == 0 || std::strncmp(n, "sieve_worker.", 13) == 0;
        if (own != own_only)
            continue;
        if (!own) {
            PyObject *file = PyDict_GetItemString(PyModule_GetDict(mod), "__file__");
            const char *f = file != nullptr && PyUnicode_Check(file) ? PyUnicode_AsUTF8(file) : nullptr;
            PyErr_Clear();
            const std::string fs = f != nullptr ? f : "";
            // torch's own modules: their code, which triton's interpreter calls in a launch (a storage's cpu()) and
            // whose ops the observer sees. Another module's: the functions of the standard library's it holds, and no
            // other (torch replaces inspect.getfile with its own, which calls the one it keeps)
            const bool torch = std::strcmp(n, "torch") == 0 || std::strncmp(n, "torch.", 6) == 0;
            g_keep_std_files = !torch && !std_file(fs) && std::strncmp(n, "_frozen_importlib", 17) != 0;
        }
        g_keep_into = own ? &g_lib_code : &g_std_code;
        PyObject *md = PyModule_GetDict(mod);
        Py_ssize_t p2 = 0;
        PyObject *k, *v;
        while (md != nullptr && PyDict_Next(md, &p2, &k, &v))
            keep_codes_of(v, 0);
    }
    g_keep_into = &g_lib_code;
    g_keep_std_files = false;
    PyErr_Clear();
}

// under the interpreter: triton's first, so that code both reach is triton's
void keep_library_code()
{
    keep_modules(true);
    keep_modules(false);
}

} // namespace

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
    // modules of triton's an answer's kernel commonly imports itself: their code is triton's own from the start
    for (const char *m : {"triton.tools.tensor_descriptor", "triton.tools.experimental_descriptor",
                          "triton.language.extra", "triton.language.extra.libdevice", "triton.language.extra.cuda",
                          "triton.language.extra.cuda.libdevice", "triton.language.math"}) {
        Py_XDECREF(PyImport_ImportModule(m));
        PyErr_Clear();
    }
    g_builtins = PyImport_ImportModule("builtins");
    g_math = PyImport_ImportModule("math");
    PyErr_Clear();
    // the code generator whose __init__ hooks.py routed through callee() before this: its class held as it is now
    PyObject *cg = PyImport_ImportModule("triton.compiler.code_generator");
    PyObject *cls = cg != nullptr ? PyObject_GetAttrString(cg, "CodeGenerator") : nullptr;
    keep_class(cls);
    // the wrappers' closures: compared at every launch (device_calls_hold)
    PyObject *call_cls = g_run_cls[1];
    PyObject *im = g_run_cls[1] != nullptr ? PyImport_ImportModule("triton.runtime.interpreter") : nullptr;
    PyObject *reduce_cls = im != nullptr ? PyObject_GetAttrString(im, "ReduceScanOpInterface") : nullptr;
    Py_XDECREF(im);
    PyErr_Clear();
    keep_class(reduce_cls);
    for (PyObject *owner : {cls, call_cls, reduce_cls}) {
        if (owner == nullptr || !PyType_Check(owner))
            continue;
        PyObject *w =
            item(reinterpret_cast<PyTypeObject *>(owner)->tp_dict, owner == call_cls ? "__call__" : "__init__");
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
    Py_XDECREF(reduce_cls);
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
    if (g_interpreted) {
        keep_library_code();
        PyObject *it = PyImport_ImportModule("triton.runtime.interpreter");
        PyObject *rw = it != nullptr ? PyObject_GetAttrString(it, "FunctionRewriter") : nullptr;
        PyObject *ce = rw != nullptr ? PyObject_GetAttrString(rw, "_compile_and_exec") : nullptr;
        if (ce != nullptr && PyFunction_Check(ce)) {
            g_rewriter_exec = PyFunction_GET_CODE(ce);
            Py_INCREF(g_rewriter_exec);
        }
        Py_XDECREF(ce);
        Py_XDECREF(rw);
        Py_XDECREF(it);
        PyErr_Clear();
    }
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
    PyErr_Clear();
    if (entry == nullptr && cache != nullptr && PyDict_CheckExact(cache) && key != nullptr) {
        // the wall puts the answer's text there itself (no mtime: checkcache leaves it): with the file moved away,
        // linecache.lazycache read torch's text through a module loader of the answer's
        // (redteam/wall2 h_r42_moved_file_lazy_torch_source)
        PyObject *lines = PyList_New(0);
        size_t at = 0;
        while (lines != nullptr && at < g_answer_raw.size()) {
            size_t nl = g_answer_raw.find('\n', at);
            nl = nl == std::string::npos ? g_answer_raw.size() : nl + 1;
            PyObject *l = PyUnicode_DecodeUTF8(g_answer_raw.data() + at, static_cast<Py_ssize_t>(nl - at), "replace");
            if (l == nullptr || PyList_Append(lines, l) != 0) {
                Py_XDECREF(l);
                Py_CLEAR(lines);
                break;
            }
            Py_DECREF(l);
            at = nl;
        }
        PyObject *seeded = lines != nullptr ? Py_BuildValue("(nOOO)", static_cast<Py_ssize_t>(g_answer_raw.size()),
                                                            Py_None, lines, key)
                                            : nullptr;
        if (seeded != nullptr)
            PyDict_SetItem(cache, key, seeded);
        Py_XDECREF(seeded);
        Py_XDECREF(lines);
        entry = PyDict_GetItemWithError(cache, key);
    }
    Py_XDECREF(key);
    PyErr_Clear();
    if (entry == nullptr) {
        *what = "linecache holds no lines of the answer's file";
        return false;
    }
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
        if (own_holds(kind, obj, own->second) && (kind == 0 || g_in_launch.load() == 0 || own_fresh(obj, own->second)))
            Py_RETURN_NONE;
        why = "triton's own kernel " + name_of(own->second.fn) + ", changed after the wall started";
    } else if (PyObject *fn = obj != Py_None ? answer_kernel(kind, obj) : nullptr) {
        PyErr_Clear();
        if (kind == 1 && PyFunction_Check(fn))
            keep_kernel_code(PyFunction_GET_CODE(fn));
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
        // the answer's kernel code, by identity: a grid function, an __eq__ or a __repr__ of the answer's loading
        // and storing with triton's C functions is none (redteam/wall2 h_r45_grid_fn_raw_load_store,
        // h_r45_patch_lang_module_eq, h_r45_exception_repr_after_programs)
        ok = kernel_code(code);
        if (ok) {
            Py_INCREF(code);
            seen.emplace(code, 1);
        }
        *file = shown(s) + (s == g_answer && !ok ? ", code that is none of its kernels" : "");
        decided = true;
        return false;
    });
    return decided && ok;
}

// ---- the kernel watch (round 43) -------------------------------------------------------------------------------
// Under the interpreter a kernel's body is Python, and Python it calls was judged by nothing else: a helper computing
// with numpy on a loaded tile's `handle` (redteam/wall2 h_r41_interp_numpy_handle), torch's kernel text compiled under
// the answer's or a standard-library file name and called as a plain function (h_r41_torch_src_compiled_as_*), a
// helper that calls triton's C load and store itself (h_r42_*_clear_violations). On the GPU triton's code generator
// refuses all of these. Here a profile function of the wall's own (kernel_calls), set on the main thread for each
// interpreted launch of the answer's, sees every call:
//  - a frame of the answer's kernel code (code of the answer's file named as one of its kernels launched or called,
//    or held by its module) may call Python that triton's or the worker's modules held at launch_setup (g_lib_code
//    kind 1, by identity: code compiled later under one of their file names is none of it), and C functions that are
//    Python's builtins reading and making plain values, the math module's, or a plain list's, tuple's, dict's,
//    string's or number's methods;
//  - while such a frame is on the stack, Python of the answer's file that starts must be its kernel code too (or the
//    rewriter's exec of a kernel's def): a plain function of the answer's started by code its kernel called (its
//    __getattr__, its __eq__) is refused. A reduction's or scan's combine function, whose `fn` triton's interpreter
//    calls itself, goes through the callee hook first (hooks.py wraps ReduceScanOpInterface.__init__): an object of
//    the answer's with a plain helper as its `fn` is no kernel (h_r43_combine_fn_plain_numpy).
// Anything else is recorded, and the call raises. The profile is the wall's for the launch: one taken out or replaced
// is seen at the next load or store (gated_call) and at the launch's end (tampering). What no call shows stays open:
// Python arithmetic and numpy's operators and ufuncs on a tile's handle written in the kernel's own body (a known gap
// on the CPU; triton's code generator refuses the body on the GPU).
namespace {

Py_tracefunc g_saved_prof = nullptr;
PyObject *g_saved_prof_obj = nullptr;
int g_watching = 0;
uint64_t g_tstate_id = 0; // the id a thread state made at the launch's start got (next_tstate_id)

// the id of a thread state made now and deleted at once: one more than the last made. Between two calls, another
// thread of Python's made (and ended) during the launch shows as a gap
uint64_t next_tstate_id(PyThreadState *me)
{
    PyThreadState *t = PyThreadState_New(me->interp);
    if (t == nullptr)
        return 0;
    const uint64_t id = t->id;
    PyThreadState_Clear(t);
    PyThreadState_Delete(t);
    return id;
}

PyObject *g_answer_str = nullptr; // g_answer as a str (kernel_watch_start)

// whether code names the answer's file: most code a launch runs is another's, told apart by length or identity
bool answer_code(PyCodeObject *c)
{
    PyObject *f = c->co_filename;
    if (f == g_answer_str)
        return true;
    if (g_answer_str == nullptr || !PyUnicode_Check(f) || PyUnicode_GET_LENGTH(f) != PyUnicode_GET_LENGTH(g_answer_str))
        return false;
    return PyUnicode_Compare(f, g_answer_str) == 0;
}

} // namespace

// by identity only: a helper of the answer's named as its kernel is none (redteam/wall2 h_r45_helper_named_as_kernel)
bool kernel_code(PyCodeObject *c)
{
    return g_kernel_code.count(reinterpret_cast<PyObject *>(c)) > 0;
}

namespace {

bool plain_c_call(PyObject *f)
{
    if (!PyCFunction_Check(f))
        return false;
    PyObject *self = PyCFunction_GET_SELF(f);
    const char *n = reinterpret_cast<PyCFunctionObject *>(f)->m_ml->ml_name;
    const std::string name = n != nullptr ? n : "";
    if (self != nullptr && self == g_builtins) {
        static const std::set<std::string> kRefused = {
            "exec",   "eval", "compile", "__import__", "setattr", "delattr",        "globals",
            "locals", "vars", "open",    "breakpoint", "input",   "__build_class__"};
        return kRefused.count(name) == 0;
    }
    if (self != nullptr && self == g_math)
        return true;
    return self != nullptr &&
           (PyList_CheckExact(self) || PyTuple_CheckExact(self) || PyDict_CheckExact(self) ||
            PyUnicode_CheckExact(self) || PyLong_CheckExact(self) || PyFloat_CheckExact(self) || PyBool_Check(self));
}

// the C functions that start a thread (_thread's, read at kernel_watch_start): none may during a launch
std::set<PyCFunction> g_thread_starts;

// "softmax_rows of triton/language/core.py": a code's name and the last two parts of its file, for a verdict
std::string named(PyCodeObject *code)
{
    const char *f = PyUnicode_AsUTF8(code->co_filename);
    const char *n = PyUnicode_AsUTF8(code->co_name);
    PyErr_Clear();
    std::string file = f != nullptr ? f : "?";
    const size_t cut = file.rfind('/', file.rfind('/') == std::string::npos ? 0 : file.rfind('/') - 1);
    return std::string(n != nullptr ? n : "?") + " of " + (cut == std::string::npos ? file : file.substr(cut + 1));
}

// the code the rewriter's exec runs (a def of the answer's kernel, or of triton's own the wall has rewritten), and the
// code nested in it, kept by identity: the kernel's frames are known by the code the rewriter made from its text
// (redteam/wall2 h_r44_kernel_code_renamed), not by a name the answer chose
void keep_rewritten(PyCodeObject *code, bool own)
{
    if (!own) {
        keep_kernel_code(reinterpret_cast<PyObject *>(code));
        return;
    }
    std::unordered_set<PyObject *> *was = g_keep_into;
    g_keep_into = &g_fresh_code;
    keep_code(reinterpret_cast<PyObject *>(code), 0);
    g_keep_into = was;
}

} // namespace

int kernel_calls(PyObject *, PyFrameObject *frame, int what, PyObject *arg)
{
    if ((what != PyTrace_CALL && what != PyTrace_C_CALL) || g_in_launch.load() == 0)
        return 0;
    std::string why;
    if (what == PyTrace_C_CALL && PyCFunction_Check(arg) &&
        g_thread_starts.count(reinterpret_cast<PyCFunctionObject *>(arg)->m_ml->ml_meth) > 0)
        // a thread of Python's runs beside the launch with no watch: numpy on a tile the kernel hands it
        // (redteam/wall2 h_r44_thread_off_main)
        why = "a thread started during the answer's interpreted launch";
    if (why.empty()) {
        // the fast path. A Python call of triton's, the worker's, numpy's or the standard library's code as it was at
        // launch_setup, which the interpreter runs all the time, or of triton's own kernels the wall rewrote for this
        // launch (a kernel's body calling numpy's or the standard library's Python is let by here, like its
        // operators: the open end, above); a C call from code that is not the answer's
        PyCodeObject *code = PyFrame_GetCode(frame);
        PyObject *c = reinterpret_cast<PyObject *>(code);
        const bool pass = what == PyTrace_CALL
                              ? g_lib_code.count(c) > 0 || g_std_code.count(c) > 0 || g_fresh_code.count(c) > 0
                              : !answer_code(code);
        Py_DECREF(code);
        if (pass && std::this_thread::get_id() == g_main)
            return 0;
    }
    if (why.empty() && std::this_thread::get_id() != g_main) {
        // no other thread of Python's was there at the launch's start, and none can start during it
        why = "Python ran on a thread other than the launch's during the answer's interpreted launch";
    }
    PyFrameObject *caller = nullptr;
    if (why.empty()) {
        caller = what == PyTrace_CALL ? PyFrame_GetBack(frame) : frame;
        if (caller == nullptr)
            return 0;
        if (what == PyTrace_C_CALL)
            Py_INCREF(caller);
    }
    if (why.empty()) {
        PyCodeObject *cc = PyFrame_GetCode(caller);
        const bool from_kernel = kernel_code(cc);
        const char *kn = from_kernel ? PyUnicode_AsUTF8(cc->co_name) : nullptr;
        PyErr_Clear();
        const std::string kname = kn != nullptr ? kn : "";
        bool from_rewriter = reinterpret_cast<PyObject *>(cc) == g_rewriter_exec;
        Py_DECREF(cc);
        if (what == PyTrace_CALL) {
            PyCodeObject *code = PyFrame_GetCode(frame);
            // the rewriter's exec runs a module's code, its def; anything else it starts (an audit hook, a mapping's
            // keys in {**kwargs}) is no rewritten kernel
            from_rewriter = from_rewriter && (code->co_flags & CO_OPTIMIZED) == 0 &&
                            PyUnicode_CompareWithASCIIString(code->co_name, "<module>") == 0;
            if (g_in_grid > 0 && kernel_code(code)) {
                // the grid function running the kernel's programs itself, with its own code between them
                why = "the answer's kernel " + named(code) + " run from its grid function";
            } else if (from_rewriter) {
                // the rewriter's exec of a def: of the answer's kernel (its frames are kernel code from now on) or,
                // inside the wall's own rewrite, of one of triton's kernels
                if (g_wall_rewriting || answer_code(code))
                    keep_rewritten(code, g_wall_rewriting);
            } else if (g_wall_rewriting) {
                // the wall's rewrite runs the standard library's code as held at launch_setup, nothing else: a
                // tokenize.open of the answer's ran there (redteam/wall2 h_r44_rewrite_window_tokenize_hook)
                why = "Python that is not the standard library's (" + named(code) +
                      ") ran inside the wall's rewrite of one of triton's kernels";
            } else if (from_kernel) { // past the fast path: code triton's modules did not hold
                why = "Python that is not triton's (" + named(code) + ") called from the answer's kernel " + kname +
                      " under the interpreter";
            } else if (!kernel_code(code) && g_in_grid == 0) {
                // code that is none of the answer's kernels, started during its launch but by its grid function:
                // the answer's (a combine function's `fn` triton's interpreter calls itself, a __getattr__, an __eq__
                // triton's _patch_lang runs, a __del__ or __repr__ between programs) or compiled under a file name of
                // its own (a key heapq calls, a __class__ property isinstance reads: redteam/wall2
                // h_r44_stdlib_trampoline_foreign_code, h_r44_assign_class_property_foreign, h_r45_*)
                why = "Python that is not triton's, numpy's or the standard library's (" + named(code) +
                      ") ran inside the answer's interpreted launch";
            }
            Py_DECREF(code);
        } else if (from_kernel && !plain_c_call(arg)) {
            const char *n =
                PyCFunction_Check(arg) ? reinterpret_cast<PyCFunctionObject *>(arg)->m_ml->ml_name : nullptr;
            why = "the C function " + std::string(n != nullptr ? n : Py_TYPE(arg)->tp_name) +
                  " called from the answer's kernel " + kname + " under the interpreter";
        }
    }
    Py_XDECREF(caller);
    if (why.empty())
        return 0;
    const std::string where = python_where();
    {
        std::lock_guard<std::mutex> lock(g_mu);
        record(why.c_str(), g_phase.load(), false, where.empty() ? "no line of the answer on the stack" : where);
    }
    PyErr_SetString(PyExc_RuntimeError, ("sieve runtime wall: refused: " + why).c_str());
    return -1;
}

// The answer's kernel function a launch runs, and those its module holds (its @triton.jit combine functions, which
// triton's interpreter calls by their fn): their frames are the answer's kernel code.
void kernel_watch_code(PyObject *fn)
{
    keep_kernel_code(PyFunction_GET_CODE(fn));
    PyObject *globals = PyFunction_GET_GLOBALS(fn);
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    while (globals != nullptr && PyDict_Check(globals) && PyDict_Next(globals, &pos, &k, &v)) {
        if (g_run_cls[1] == nullptr || reinterpret_cast<PyObject *>(Py_TYPE(v)) != g_run_cls[1])
            continue;
        PyObject *d = PyObject_GenericGetDict(v, nullptr);
        PyObject *held = item(d, "fn");
        if (held != nullptr && PyFunction_Check(held) && in_answer(held))
            keep_kernel_code(PyFunction_GET_CODE(held));
        Py_XDECREF(d);
        PyErr_Clear();
    }
}

// An interpreted launch of the answer's kernel begins (main thread): the watch on until kernel_watch_end.
void kernel_watch_start()
{
    if (g_answer_str == nullptr)
        g_answer_str = PyUnicode_FromString(g_answer.c_str());
    PyErr_Clear();
    if (g_watching++ > 0)
        return;
    g_tstate_id = next_tstate_id(PyThreadState_Get());
    if (g_thread_starts.empty()) {
        PyObject *t = PyImport_ImportModule("_thread"); // C: imported by the worker long before the answer
        for (const char *n : {"start_new_thread", "start_new", "start_joinable_thread"}) {
            PyObject *f = t != nullptr ? PyDict_GetItemString(PyModule_GetDict(t), n) : nullptr;
            if (f != nullptr && PyCFunction_Check(f))
                g_thread_starts.insert(reinterpret_cast<PyCFunctionObject *>(f)->m_ml->ml_meth);
        }
        Py_XDECREF(t);
        PyErr_Clear();
    }
    // one thread of Python's during the launch: another, there before it, would run beside the kernel with no watch
    // (redteam/wall2 h_r44_thread_off_main); the worker runs none of its own in the candidate
    PyThreadState *me = PyThreadState_Get();
    for (PyThreadState *t = PyInterpreterState_ThreadHead(me->interp); t != nullptr; t = PyThreadState_Next(t))
        if (t != me) {
            std::lock_guard<std::mutex> lock(g_mu);
            record("another thread of Python's during the answer's interpreted launch", g_phase.load(), false,
                   "a thread the answer started before the launch");
            break;
        }
    // a trace function: Python calls it with the profile off, so the watch sees nothing it runs (redteam/wall2
    // h_r45_settrace_line_tracer); kernel_watch_holds, at every load and store, requires none
    if (me->c_tracefunc != nullptr) {
        std::lock_guard<std::mutex> lock(g_mu);
        record("a trace function during the answer's interpreted launch", g_phase.load(), false,
               "sys.settrace before the launch");
    }
    PyThreadState *ts = PyThreadState_Get();
    g_saved_prof = ts->c_profilefunc;
    g_saved_prof_obj = ts->c_profileobj;
    Py_XINCREF(g_saved_prof_obj);
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    PyEval_SetProfile(kernel_calls, nullptr);
    PyErr_Clear();
    PyErr_Restore(et, ev, tb);
}

bool kernel_watch_holds()
{
    PyThreadState *ts = PyThreadState_Get();
    if (ts->c_profilefunc != kernel_calls || ts->c_tracefunc != nullptr || g_in_grid > 0)
        return false;
    // no other thread of Python's (one started from C, past the check of _thread's start functions)
    for (PyThreadState *t = PyInterpreterState_ThreadHead(ts->interp); t != nullptr; t = PyThreadState_Next(t))
        if (t != ts)
            return false;
    return true;
}

// The launch has ended: the watch must still be the wall's (else tampering), and the profile before it is put back.
void kernel_watch_end()
{
    if (g_watching == 0 || --g_watching > 0)
        return;
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    if (!kernel_watch_holds()) {
        std::lock_guard<std::mutex> lock(g_mu);
        tamper("the wall's watch of an interpreted kernel's calls was taken out during its launch");
    }
    const uint64_t id = next_tstate_id(PyThreadState_Get());
    if (g_tstate_id == 0 || id != g_tstate_id + 1) {
        std::lock_guard<std::mutex> lock(g_mu);
        tamper("a thread of Python's was started during an interpreted launch");
    }
    PyEval_SetProfile(g_saved_prof, g_saved_prof_obj);
    Py_XDECREF(g_saved_prof_obj);
    g_saved_prof = nullptr;
    g_saved_prof_obj = nullptr;
    PyErr_Clear();
    PyErr_Restore(et, ev, tb);
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
