// What an answer's Triton kernel reaches by name (docs/VERIFIER.md, "The runtime wall", round 40). The launch hook
// judges the kernel object launched (sieve_wall.cpp answer_kernel); a @triton.jit function called inside it is a
// device function (triton's compiler inlines a JITFunction callee, the interpreter's InterpretedFunction.__call__
// runs it) and never goes through run: torch's whole softmax kernel called from a one-line kernel of the answer's
// did the work as the answer's launch (redteam/wall2 h_r39_device_call_torch_kernel). So before a launch of the
// answer's kernel, warmup or not, every kernel object its names can reach must be the answer's or one of triton's
// own as it was when the wall started (tl.sum, tl.softmax ... in triton.language), and so, recursively, must theirs.
//
// The names: on the GPU the identifiers of the src triton compiles (a superset: locals, attributes, words of a
// comment), under the interpreter those its function's code reads (co_names, co_freevars, nested code), and on
// both the kernel's defaults and the launch's arguments (a JITFunction passed as a constexpr). A name is looked up
// as triton and Python look it up (the closure, the function's __globals__, the globals' __builtins__); a module,
// class, object or container found is looked into for every name of the set (a superset of `a.b.c`), kernel
// objects only. A plain Python function reached directly by name must be the answer's (walked as its kernel is) or
// triton's: under the interpreter torch's kernel's own `fn` runs as Python (round 40, mine). Nothing here runs
// Python of the answer's: dicts are read, not attributes got (a module's __getattr__, a property); identifiers
// outside ASCII are NFKC-normalised with the function held from launch_setup, as Python normalises them.
#include "wall.h"

namespace sieve_wall {

namespace {

PyObject *g_iface = nullptr; // triton.runtime.jit.KernelInterface (the kernel classes, Autotuner, Heuristics)
PyObject *g_nfkc = nullptr;  // unicodedata.normalize, held before any of the answer loads
std::string g_triton_dir;    // triton's package folder, ending in '/'

// triton's own kernel objects at launch_setup: fn, fn's code, and the src (JITFunction) or rewriter
// (InterpretedFunction) they had; a launch finds them so or the kernel reaching them is refused
struct Own
{
    PyObject *fn, *code, *src;
};
std::unordered_map<PyObject *, Own> g_own;

// triton's modules at launch_setup: their dicts and a copy of each. A module found as it was holds only triton's
// own (its kernels are g_own's, judged by own_holds), so the walk does not look into it, nor through the names of
// triton's kernels whose globals it is: what keeps a launch's walk short (tl, triton.language.standard ...)
std::unordered_map<PyObject *, PyObject *> g_triton_dicts;
std::unordered_map<PyObject *, uint64_t> g_kept_at; // dict -> its version when last found as it was

uint64_t dict_version(PyObject *d)
{
#if PY_VERSION_HEX < 0x030E0000
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    return reinterpret_cast<PyDictObject *>(d)->ma_version_tag;
#pragma GCC diagnostic pop
#else
    return 0; // no tag: compared in full every launch
#endif
}

// the classes a launch's arguments may have besides C types (whose objects run no Python of the answer's): torch's
// tensor and parameter classes and every class triton's modules held at launch_setup (dtypes, constexpr, tensor
// descriptors); an object of any other Python class runs the answer's code inside triton's launch (hasattr(arg,
// "data_ptr") on it), after the walk judged the launch
std::unordered_set<PyObject *> g_arg_types;

// a name the walk looks up: its text and the interned str it is looked up with (held for good)
struct Name
{
    std::string s;
    PyObject *key;
};
using Names = std::vector<Name>;

// identifiers of a code object (held, so the pointer is not reused)
std::unordered_map<PyObject *, Names> g_names_of;

constexpr int kDepth = 4;           // how deep modules, classes and objects are looked into
constexpr size_t kBudget = 1 << 16; // lookups one launch may take; past it the launch is refused (fail closed)

PyObject *dict_of(PyObject *obj)
{
    PyObject **dp = _PyObject_GetDictPtr(obj);
    return dp != nullptr && *dp != nullptr && PyDict_Check(*dp) ? *dp : nullptr;
}

PyObject *item(PyObject *d, const char *k)
{
    return d != nullptr && PyDict_Check(d) ? PyDict_GetItemString(d, k) : nullptr;
}

std::string nfkc(const std::string &s)
{
    if (g_nfkc == nullptr)
        return s;
    PyObject *u = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace");
    PyObject *r = u != nullptr ? PyObject_CallFunction(g_nfkc, "sO", "NFKC", u) : nullptr;
    const char *p = r != nullptr && PyUnicode_Check(r) ? PyUnicode_AsUTF8(r) : nullptr;
    std::string out = p != nullptr ? p : s;
    Py_XDECREF(u);
    Py_XDECREF(r);
    PyErr_Clear();
    return out;
}

void text_names(const char *p, size_t n, std::vector<std::string> *out)
{
    std::set<std::string> seen;
    for (size_t i = 0; i < n;) {
        const auto c = static_cast<unsigned char>(p[i]);
        if (!(std::isalpha(c) || c == '_' || c >= 0x80)) {
            ++i;
            while (std::isdigit(c) && i < n && (std::isalnum(static_cast<unsigned char>(p[i])) || p[i] == '_'))
                ++i; // the rest of a number (1e5, 0x1f) is no name
            continue;
        }
        size_t j = i;
        bool ascii = true;
        while (j < n) {
            const auto d = static_cast<unsigned char>(p[j]);
            if (!(std::isalnum(d) || d == '_' || d >= 0x80))
                break;
            ascii = ascii && d < 0x80;
            ++j;
        }
        std::string w(p + i, j - i);
        seen.insert(ascii ? w : nfkc(w));
        i = j;
    }
    out->assign(seen.begin(), seen.end());
}

void code_names(PyObject *code, std::set<std::string> *out, int depth)
{
    if (code == nullptr || !PyCode_Check(code) || depth > 16)
        return;
    auto *c = reinterpret_cast<PyCodeObject *>(code);
    for (PyObject *t : {c->co_names, PyCode_GetFreevars(c)}) {
        for (Py_ssize_t i = 0; t != nullptr && PyTuple_Check(t) && i < PyTuple_GET_SIZE(t); ++i) {
            const char *s = PyUnicode_AsUTF8(PyTuple_GET_ITEM(t, i));
            if (s != nullptr)
                out->insert(s);
        }
        if (t != c->co_names)
            Py_XDECREF(t);
    }
    PyErr_Clear();
    for (Py_ssize_t i = 0; c->co_consts != nullptr && i < PyTuple_GET_SIZE(c->co_consts); ++i)
        code_names(PyTuple_GET_ITEM(c->co_consts, i), out, depth + 1);
}

// The names of a src string (kept by its text: a version whose src property makes a new string each time must not
// grow this) or of a code object (kept by the object, held).
std::unordered_map<std::string, Names> g_names_of_text;

Names interned(const std::set<std::string> &words)
{
    Names out;
    for (const auto &w : words) {
        PyObject *k = PyUnicode_InternFromString(w.c_str());
        if (k != nullptr)
            out.push_back({w, k});
        PyErr_Clear();
    }
    return out;
}

const Names &names_of(PyObject *o)
{
    static const Names kNone;
    if (PyUnicode_Check(o)) {
        Py_ssize_t n = 0;
        const char *p = PyUnicode_AsUTF8AndSize(o, &n);
        PyErr_Clear();
        if (p == nullptr)
            return kNone;
        std::string text(p, static_cast<size_t>(n));
        auto it = g_names_of_text.find(text);
        if (it != g_names_of_text.end())
            return it->second;
        std::vector<std::string> v;
        text_names(text.data(), text.size(), &v);
        return g_names_of_text.emplace(std::move(text), interned(std::set<std::string>(v.begin(), v.end())))
            .first->second;
    }
    auto it = g_names_of.find(o);
    if (it != g_names_of.end())
        return it->second;
    std::set<std::string> s;
    code_names(o, &s, 0);
    PyErr_Clear();
    Py_INCREF(o);
    return g_names_of.emplace(o, interned(s)).first->second;
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

PyObject *src_of(PyObject *k)
{
    // as triton reads it (sieve_wall.cpp jit_src_in_answer); the classes are held (classes_hold)
    PyObject *s = PyObject_GetAttrString(k, "_src");
    if (s == nullptr) {
        PyErr_Clear();
        s = PyObject_GetAttrString(k, "src");
    }
    PyErr_Clear();
    return s;
}

// Whether one of triton's own kernels is as it was at launch_setup (kind 1: interpreted_runs also drops the
// interpreter's cache entry for its fn, so the rewriter judged here makes it).
bool own_holds(int kind, PyObject *k, const Own &o)
{
    PyObject *d = PyObject_GenericGetDict(k, nullptr);
    PyErr_Clear();
    bool ok = d != nullptr && item(d, "fn") == o.fn && PyFunction_Check(o.fn) && PyFunction_GET_CODE(o.fn) == o.code;
    std::string what;
    if (ok && kind == 1)
        ok = item(d, "rewriter") == o.src && interpreted_runs(k, d, o.fn);
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

bool answers(PyObject *f)
{
    return f != nullptr && PyFunction_Check(f) && file_of(f) == g_answer;
}

// An attribute the answer's own code computes when triton or Python reads it (a module's or class's __getattr__, a
// property, a descriptor of the answer's): what it returns is not in any dict the walk reads. Returns its name.
const char *computed(PyObject *holder, PyObject *attr)
{
    if (PyModule_Check(holder))
        return answers(item(PyModule_GetDict(holder), "__getattr__")) ? "a module __getattr__" : nullptr;
    PyTypeObject *t = Py_TYPE(holder); // a class's metaclass, or an object's class
    for (const char *m : {"__getattr__", "__getattribute__"}) {
        PyObject *key = PyUnicode_FromString(m);
        PyObject *f = key != nullptr ? _PyType_Lookup(t, key) : nullptr;
        Py_XDECREF(key);
        PyErr_Clear();
        if (answers(f))
            return m;
    }
    if (attr == nullptr)
        return nullptr;
    if (PyObject_TypeCheck(attr, &PyProperty_Type)) {
        PyObject *g = PyObject_GetAttrString(attr, "fget");
        const bool mine = answers(g);
        Py_XDECREF(g);
        PyErr_Clear();
        return mine ? "a property" : nullptr;
    }
    if ((Py_TYPE(attr)->tp_flags & Py_TPFLAGS_HEAPTYPE) != 0 && Py_TYPE(attr)->tp_descr_get != nullptr) {
        PyObject *key = PyUnicode_FromString("__get__");
        PyObject *g = key != nullptr ? _PyType_Lookup(Py_TYPE(attr), key) : nullptr;
        Py_XDECREF(key);
        PyErr_Clear();
        return answers(g) ? "a descriptor's __get__" : nullptr;
    }
    return nullptr;
}

// Under the interpreter a kernel is Python: names of builtins that change or run code by name, and a code object that
// stores or deletes a global, would let it change what its names reach after the launch was judged.
bool changes_names(PyObject *code, int depth = 0)
{
    if (code == nullptr || !PyCode_Check(code) || depth > 16)
        return false;
    PyObject *b = PyCode_GetCode(reinterpret_cast<PyCodeObject *>(code));
    bool found = false;
    if (b != nullptr && PyBytes_Check(b)) {
        const auto *p = reinterpret_cast<const unsigned char *>(PyBytes_AS_STRING(b));
        for (Py_ssize_t i = 0; i + 1 < PyBytes_GET_SIZE(b); i += 2)
            found = found || p[i] == 97 /* STORE_GLOBAL */ || p[i] == 98 /* DELETE_GLOBAL */;
    }
    Py_XDECREF(b);
    PyErr_Clear();
    auto *c = reinterpret_cast<PyCodeObject *>(code);
    for (Py_ssize_t i = 0; !found && c->co_consts != nullptr && i < PyTuple_GET_SIZE(c->co_consts); ++i)
        found = changes_names(PyTuple_GET_ITEM(c->co_consts, i), depth + 1);
    return found;
}

const std::set<std::string> kRenamingBuiltins = {"globals", "vars", "locals",  "setattr",    "delattr",
                                                 "exec",    "eval", "compile", "__import__", "breakpoint"};

struct Walk
{
    int kind;
    std::unordered_map<PyObject *, bool> as_kept; // triton's module dicts compared in this walk

    // whether d is one of triton's module dicts, as it was at launch_setup
    bool kept_triton(PyObject *d)
    {
        auto t = g_triton_dicts.find(d);
        if (t == g_triton_dicts.end())
            return false;
        auto c = as_kept.find(d);
        if (c != as_kept.end())
            return c->second;
        // a dict's version tag changes at every change of it (CPython up to 3.13): unchanged since a launch found
        // the dict as it was, it still is
        const uint64_t version = dict_version(d);
        auto seen_at = g_kept_at.find(d);
        if (version != 0 && seen_at != g_kept_at.end() && seen_at->second == version) {
            as_kept.emplace(d, true);
            return true;
        }
        bool same = PyDict_Size(d) == PyDict_Size(t->second);
        Py_ssize_t pos = 0;
        PyObject *k, *v;
        while (same && PyDict_Next(t->second, &pos, &k, &v))
            same = PyDict_GetItemWithError(d, k) == v;
        PyErr_Clear();
        as_kept.emplace(d, same);
        if (same)
            g_kept_at[d] = version;
        return same;
    }

    std::unordered_set<PyObject *> seen;                  // kernels and functions walked
    std::set<std::pair<PyObject *, const void *>> looked; // (object, names) looked into
    std::vector<std::pair<PyObject *, PyObject *>> todo;  // (function, its names' source: src text or code)
    std::vector<PyObject *> held;                         // new references taken on the way
    size_t steps = 0;
    std::string why;

    ~Walk()
    {
        for (PyObject *o : held)
            Py_DECREF(o);
    }

    bool fail(const std::string &w)
    {
        if (why.empty())
            why = w;
        return false;
    }

    // a kernel object (Autotuner and Heuristics unwrapped through their fn): the answer's or triton's own
    bool kernel(PyObject *v)
    {
        PyObject *k = v;
        for (int i = 0; i < 8 && k != nullptr && reinterpret_cast<PyObject *>(Py_TYPE(k)) != g_run_cls[kind] &&
                        PyType_IsSubtype(Py_TYPE(k), reinterpret_cast<PyTypeObject *>(g_iface));
             ++i)
            k = item(dict_of(k), "fn");
        if (k == nullptr || reinterpret_cast<PyObject *>(Py_TYPE(k)) != g_run_cls[kind])
            return fail(std::string("a kernel object of type ") + Py_TYPE(v)->tp_name +
                        " that is no kernel of triton's");
        if (!seen.insert(k).second)
            return true;
        auto own = g_own.find(k);
        if (own != g_own.end()) {
            if (!own_holds(kind, k, own->second))
                return fail("triton's own kernel " + name_of(own->second.fn) + ", changed after the wall started");
            if (kept_triton(PyFunction_GET_GLOBALS(own->second.fn)))
                return true; // its names reach what its module held at launch_setup: triton's own
            todo.emplace_back(own->second.fn, kind == 0 ? own->second.src : own->second.code);
            // (kind 1: the names of the code the rewriter compiles, fn's)
            return true;
        }
        PyObject *fn = answer_kernel(kind, k);
        PyErr_Clear();
        if (fn == nullptr) {
            PyObject *d = PyObject_GenericGetDict(k, nullptr);
            PyObject *kf = item(d, "fn");
            const std::string w = "a Triton kernel not defined in the answer's file (" + name_of(kf) + " from " +
                                  shown(file_of(kf)) + ")";
            Py_XDECREF(d);
            PyErr_Clear();
            return fail(w);
        }
        held.push_back(fn);
        PyObject *names = kind == 0 ? src_of(k) : PyFunction_GET_CODE(fn);
        if (kind == 0) {
            if (names == nullptr)
                return fail("a kernel of the answer's with no src");
            held.push_back(names);
        }
        todo.emplace_back(fn, names);
        return true;
    }

    // a value a name led to; direct: reached by the name itself (a function found so is judged, not only kernels)
    bool value(PyObject *v, const Names &names, int depth, bool direct)
    {
        if (++steps > kBudget)
            return fail("more names and objects than the wall looks into");
        if (v == nullptr || v == Py_None || PyLong_Check(v) || PyFloat_Check(v) || PyUnicode_Check(v) ||
            PyBool_Check(v) || PyBytes_Check(v))
            return true;
        if (PyType_IsSubtype(Py_TYPE(v), reinterpret_cast<PyTypeObject *>(g_iface)))
            return kernel(v);
        if (PyMethod_Check(v))
            return value(PyMethod_GET_FUNCTION(v), names, depth, direct) &&
                   value(PyMethod_GET_SELF(v), names, depth + 1, false);
        if (PyObject_TypeCheck(v, &PyStaticMethod_Type) || PyObject_TypeCheck(v, &PyClassMethod_Type)) {
            PyObject *f = PyObject_GetAttrString(v, "__func__");
            PyErr_Clear();
            const bool ok = f == nullptr || value(f, names, depth, direct);
            Py_XDECREF(f);
            return ok;
        }
        if (PyFunction_Check(v)) {
            // a plain function: run as Python by the interpreter, a compile error on the GPU
            if (!direct || kind != 1)
                return true;
            const std::string f = file_of(v);
            if (f == g_answer) {
                if (seen.insert(v).second)
                    todo.emplace_back(v, PyFunction_GET_CODE(v));
                return true;
            }
            if (!g_triton_dir.empty() && f.rfind(g_triton_dir, 0) == 0)
                return true;
            return fail("a Python function not defined in the answer's file (" + name_of(v) + " from " + shown(f) +
                        ")");
        }
        // a container, module, class or object: looked into once for each set of names
        if (depth >= kDepth || !looked.emplace(v, &names).second)
            return true;
        if (PyTuple_Check(v) || PyList_Check(v)) {
            PyObject *seq = PySequence_Fast(v, "");
            for (Py_ssize_t i = 0; seq != nullptr && i < PySequence_Fast_GET_SIZE(seq); ++i)
                if (!value(PySequence_Fast_GET_ITEM(seq, i), names, depth + 1, direct)) {
                    Py_DECREF(seq);
                    return false;
                }
            Py_XDECREF(seq);
            PyErr_Clear();
            return true;
        }
        if (PyDict_Check(v)) {
            Py_ssize_t pos = 0;
            PyObject *k, *x;
            while (PyDict_Next(v, &pos, &k, &x))
                if (!value(x, names, depth + 1, direct))
                    return false;
            return true;
        }
        PyObject *d = PyModule_Check(v) ? PyModule_GetDict(v) : dict_of(v);
        if (PyModule_Check(v) && kept_triton(d))
            return true;
        const bool type = PyType_Check(v);
        const bool heap = (Py_TYPE(v)->tp_flags & Py_TPFLAGS_HEAPTYPE) != 0;
        if (const char *c = (type || heap || PyModule_Check(v)) ? computed(v, nullptr) : nullptr)
            return fail(std::string("an object whose attributes the answer's code computes (") + c + " of " +
                        Py_TYPE(v)->tp_name + ")");
        for (const auto &n : names) {
            PyObject *x = d != nullptr ? PyDict_GetItemWithError(d, n.key) : nullptr;
            if (x == nullptr && (type || heap))
                x = _PyType_Lookup(type ? reinterpret_cast<PyTypeObject *>(v) : Py_TYPE(v), n.key);
            PyErr_Clear();
            if (x == nullptr)
                continue;
            if (const char *c = computed(v, x))
                return fail(std::string("an attribute the answer's code computes (") + c + " " + n.s + ")");
            if (!value(x, names, depth + 1, false))
                return false;
        }
        return true;
    }

    // every name of fn's (from names_src) as Python and triton look it up, its defaults, and on to its callees
    bool function(PyObject *fn, PyObject *names_src)
    {
        const Names &names = names_of(names_src);
        if (kind == 1 && answers(fn) && changes_names(PyFunction_GET_CODE(fn)))
            return fail("the answer's kernel code " + name_of(fn) + " assigns or deletes a global");
        PyObject *globals = PyFunction_GET_GLOBALS(fn);
        PyObject *b = item(globals, "__builtins__");
        PyObject *builtins = b != nullptr && PyModule_Check(b) ? PyModule_GetDict(b) : b;
        auto *code = reinterpret_cast<PyCodeObject *>(PyFunction_GET_CODE(fn));
        PyObject *free = PyCode_GetFreevars(code);
        PyObject *closure = PyFunction_GET_CLOSURE(fn);
        for (const auto &n : names) {
            PyObject *cell = nullptr;
            for (Py_ssize_t i = 0; free != nullptr && closure != nullptr && PyTuple_Check(closure) &&
                                   i < PyTuple_GET_SIZE(free) && i < PyTuple_GET_SIZE(closure);
                 ++i)
                if (PyTuple_GET_ITEM(free, i) == n.key ||
                    PyUnicode_Compare(PyTuple_GET_ITEM(free, i), n.key) == 0) // free names are interned
                    cell =
                        PyCell_Check(PyTuple_GET_ITEM(closure, i)) ? PyCell_GET(PyTuple_GET_ITEM(closure, i)) : nullptr;
            PyErr_Clear();
            PyObject *g =
                globals != nullptr && PyDict_Check(globals) ? PyDict_GetItemWithError(globals, n.key) : nullptr;
            PyObject *bv =
                builtins != nullptr && PyDict_Check(builtins) ? PyDict_GetItemWithError(builtins, n.key) : nullptr;
            PyErr_Clear();
            if (kind == 1 && kRenamingBuiltins.count(n.s) > 0 && g == nullptr && cell == nullptr && bv != nullptr)
                return fail("the builtin " + n.s + " in the answer's kernel code " + name_of(fn));
            for (PyObject *v : {cell, g, bv})
                if (v != nullptr && !value(v, names, 0, true)) {
                    Py_XDECREF(free);
                    why += ", reached by the name " + n.s + " in " + name_of(fn);
                    return false;
                }
        }
        Py_XDECREF(free);
        for (PyObject *v : {PyFunction_GET_DEFAULTS(fn), PyFunction_GET_KW_DEFAULTS(fn)})
            if (v != nullptr && !value(v, names, 0, true)) {
                why += ", a default of " + name_of(fn);
                return false;
            }
        return true;
    }

    bool run()
    {
        while (!todo.empty()) {
            auto [fn, src] = todo.back();
            todo.pop_back();
            if (!function(fn, src))
                return false;
        }
        return true;
    }
};

} // namespace

void keep_types(PyObject *module_dict)
{
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    while (module_dict != nullptr && PyDict_Next(module_dict, &pos, &k, &v))
        if (PyType_Check(v) && g_arg_types.insert(v).second)
            Py_INCREF(v);
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
    if ((t->tp_flags & Py_TPFLAGS_HEAPTYPE) == 0 || PyType_IsSubtype(t, reinterpret_cast<PyTypeObject *>(g_iface)))
        return true; // a C type's object, or a kernel (the walk judges it)
    if (g_arg_types.count(reinterpret_cast<PyObject *>(t)) == 0) {
        *what = t->tp_name;
        return false;
    }
    PyObject *d = dict_of(v); // a tensor descriptor's base, shape ...
    Py_ssize_t pos = 0;
    PyObject *k, *x;
    while (d != nullptr && PyDict_Next(d, &pos, &k, &x))
        if (!argument_ok(x, depth + 1, what))
            return false;
    return true;
}

void callees_setup()
{
    PyObject *jit = PyImport_ImportModule("triton.runtime.jit");
    g_iface = jit != nullptr ? PyObject_GetAttrString(jit, "KernelInterface") : nullptr;
    Py_XDECREF(jit);
    PyObject *ud = PyImport_ImportModule("unicodedata");
    g_nfkc = ud != nullptr ? PyObject_GetAttrString(ud, "normalize") : nullptr;
    Py_XDECREF(ud);
    for (const char *m : {"torch", "torch.nn.parameter", "triton.tools.tensor_descriptor"}) {
        PyObject *mod = PyImport_ImportModule(m);
        if (mod != nullptr && std::strcmp(m, "torch") == 0) {
            PyObject *t = PyObject_GetAttrString(mod, "Tensor");
            if (t != nullptr && PyType_Check(t) && g_arg_types.insert(t).second)
                Py_INCREF(t);
            Py_XDECREF(t);
        } else if (mod != nullptr && std::strcmp(m, "torch.nn.parameter") == 0) {
            for (const char *c : {"Parameter", "Buffer"}) {
                PyObject *t = PyObject_GetAttrString(mod, c);
                if (t != nullptr && PyType_Check(t) && g_arg_types.insert(t).second)
                    Py_INCREF(t);
                Py_XDECREF(t);
                PyErr_Clear();
            }
        }
        Py_XDECREF(mod);
        PyErr_Clear();
    }
    PyObject *tr = PyImport_ImportModule("triton");
    PyObject *file = tr != nullptr ? PyObject_GetAttrString(tr, "__file__") : nullptr;
    const char *f = file != nullptr && PyUnicode_Check(file) ? PyUnicode_AsUTF8(file) : nullptr;
    if (f != nullptr) {
        g_triton_dir = f;
        g_triton_dir = g_triton_dir.substr(0, g_triton_dir.rfind('/') + 1);
    }
    Py_XDECREF(file);
    Py_XDECREF(tr);
    PyErr_Clear();
    // triton's own kernels: every kernel object a module of triton's holds now
    PyObject *mods = PyImport_GetModuleDict();
    Py_ssize_t pos = 0;
    PyObject *name, *mod;
    while (mods != nullptr && PyDict_Next(mods, &pos, &name, &mod)) {
        const char *n = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : nullptr;
        if (n == nullptr || !PyModule_Check(mod) ||
            (std::strcmp(n, "triton") != 0 && std::strncmp(n, "triton.", 7) != 0))
            continue;
        PyObject *md = PyModule_GetDict(mod);
        keep_types(md);
        if (g_triton_dicts.count(md) == 0) {
            Py_INCREF(md);
            g_triton_dicts.emplace(md, PyDict_Copy(md));
        }
        Py_ssize_t p2 = 0;
        PyObject *k, *v;
        while (PyDict_Next(md, &p2, &k, &v)) {
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

std::string callees_refused(int kind, PyObject *kself, PyObject *fn, PyObject *args, PyObject *kwargs,
                            std::vector<PyObject *> *reached)
{
    if (g_iface == nullptr || !PyType_Check(g_iface))
        return "";
    std::string what;
    bool ok = argument_ok(args, 0, &what);
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    while (ok && PyDict_Next(kwargs, &pos, &k, &v))
        ok = argument_ok(v, 0, &what);
    if (!ok)
        return "an argument of the class " + what + " passed to " + name_of(fn) +
               " (code of its own would run inside triton's launch)";
    Walk w;
    w.kind = kind;
    w.seen.insert(kself);
    PyObject *src = kind == 0 ? src_of(kself) : nullptr;
    if (kind == 0 && src == nullptr)
        return "the answer's kernel has no src";
    w.todo.emplace_back(fn, kind == 0 ? src : PyFunction_GET_CODE(fn));
    if (src != nullptr)
        w.held.push_back(src);
    // a kernel passed as an argument (a constexpr callee)
    static const Names kNone;
    ok = w.value(args, kNone, 0, true);
    pos = 0;
    while (ok && PyDict_Next(kwargs, &pos, &k, &v))
        ok = w.value(v, kNone, 0, true);
    if (!ok)
        return w.why + ", passed to " + name_of(fn);
    if (!w.run())
        return w.why;
    if (reached != nullptr) {
        reached->assign(w.seen.begin(), w.seen.end());
        std::sort(reached->begin(), reached->end());
    }
    return "";
}

} // namespace sieve_wall
