// ctypes shut and numpy's array interface at a raw address (docs/VERIFIER.md, "No raw memory, no foreign calls");
// the other ways to raw memory: triton's interpreter functions, made code objects, /proc/self/mem (shut_raw).
#include "wall.h"

#include <fstream>
#include <iterator>
#include <map>
#include <sys/prctl.h>

namespace sieve_wall {

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

// ---- the other ways to raw memory (round 11: redteam/wall2 h_r11_*) --------------------------------------------
// triton's interpreter module (triton._C.libtriton.interpreter, in every triton build) loads, stores and swaps at
// any host address from plain Python: refused but inside an interpreted launch of the answer's kernel, which the
// wall runs (g_in_launch; on a GPU there is none). They are nanobind functions, no PyMethodDef: each object's own
// vectorcall pointer, which tp_call and __call__ go through too, is pointed at a gate.
std::map<PyObject *, std::pair<vectorcallfunc, std::string>> g_gated; // function object -> (its vectorcall, name)

PyObject *gated_call(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    auto it = g_gated.find(callable);
    if (it == g_gated.end())
        return native_refuse("a gated native function");
    if (!(g_interpreted && g_in_launch.load() > 0 && std::this_thread::get_id() == g_main))
        return native_refuse(it->second.second + " (raw memory outside an interpreted launch)");
    return it->second.first(callable, args, nargsf, kwnames);
}

int gate_vectorcall(PyObject *f, const std::string &name)
{
    PyTypeObject *t = Py_TYPE(f);
    if (!PyType_HasFeature(t, Py_TPFLAGS_HAVE_VECTORCALL) || t->tp_vectorcall_offset <= 0)
        return -1;
    auto *slot = reinterpret_cast<vectorcallfunc *>(reinterpret_cast<char *>(f) + t->tp_vectorcall_offset);
    if (*slot == gated_call)
        return 0;
    if (*slot == nullptr)
        return -1;
    Py_INCREF(f);
    g_gated[f] = {*slot, name};
    *slot = gated_call;
    return 1;
}

// Code objects made from bytes: a LOAD_CONST past co_consts in a code.replace'd co_code, or a crafted marshal
// stream, reads any address as an object (a bytearray over all memory, in pure Python). The wall's own audit hook
// (C, so no Python of the answer's can remove or switch it) refuses code.__new__ (CodeType(), code.replace) but to
// torch's renamer of decorated functions, and marshal.loads but to importlib's own read of a .pyc under the
// library folders whose bytes are the file's. Python's own compile() of source or an AST makes valid code.
std::vector<std::string> g_code_roots; // folders whose .pyc files the importer may unmarshal

bool pyc_matches(PyFrameObject *f, PyObject *args)
{
    PyObject *locals = PyFrame_GetLocals(f); // new reference
    PyObject *path = locals != nullptr ? PyMapping_GetItemString(locals, "bytecode_path") : nullptr;
    Py_XDECREF(locals);
    const char *p = path != nullptr && PyUnicode_Check(path) ? PyUnicode_AsUTF8(path) : nullptr;
    PyErr_Clear();
    char real[PATH_MAX];
    bool ok = false;
    if (p != nullptr && realpath(p, real) != nullptr) {
        const std::string r(real);
        bool under = false;
        for (const std::string &root : g_code_roots)
            under = under || r.compare(0, root.size(), root) == 0;
        PyObject *data = PyTuple_Check(args) && PyTuple_GET_SIZE(args) > 0 ? PyTuple_GET_ITEM(args, 0) : nullptr;
        if (under && data != nullptr && PyBytes_Check(data)) {
            std::ifstream in(r, std::ios::binary);
            std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            ok = bytes.size() >= 16 && static_cast<Py_ssize_t>(bytes.size() - 16) == PyBytes_GET_SIZE(data) &&
                 std::memcmp(bytes.data() + 16, PyBytes_AS_STRING(data), bytes.size() - 16) == 0;
        }
    }
    Py_XDECREF(path);
    return ok;
}

int code_audit(const char *event, PyObject *args, void *)
{
    const bool code_new = std::strcmp(event, "code.__new__") == 0;
    const bool unmarshal = std::strcmp(event, "marshal.loads") == 0 || std::strcmp(event, "marshal.load") == 0;
    if (!code_new && !unmarshal)
        return 0;
    PyFrameObject *f = PyEval_GetFrame(); // borrowed: the innermost Python frame, the caller of the C function
    PyCodeObject *code = f != nullptr ? PyFrame_GetCode(f) : nullptr;
    bool allowed = false;
    std::string caller = "no Python caller";
    if (code != nullptr) {
        const char *name = PyUnicode_AsUTF8(code->co_name);
        const char *file = PyUnicode_AsUTF8(code->co_filename);
        PyErr_Clear();
        caller = std::string(name ? name : "?") + " at " + (file ? file : "?");
        const bool trusted = g_trusted_code.count(reinterpret_cast<PyObject *>(code)) > 0;
        if (trusted && code_new && name != nullptr && file != nullptr)
            allowed = std::strcmp(name, "_set_stack_frame_name") == 0 &&
                      std::string(file).find("torch/utils/_contextlib.py") != std::string::npos;
        if (trusted && unmarshal && name != nullptr && file != nullptr)
            allowed = std::strcmp(name, "_compile_bytecode") == 0 &&
                      std::strcmp(file, "<frozen importlib._bootstrap_external>") == 0 && pyc_matches(f, args);
        Py_DECREF(code);
    }
    if (allowed)
        return 0;
    native_refuse(std::string(code_new ? "making a code object (code.__new__" : "unmarshalling code (marshal") +
                  ", from " + caller + ")");
    return -1;
}

// shut_raw(code_roots): the rest of raw memory, once ctypes is shut (Wall.start). The candidate becomes not
// dumpable, so its /proc/<pid>/mem (and every thread's) is root's, mode 0600: the candidate, with its own uid and no
// capability, opens it neither to read (the call's inputs, the wall's key) nor to write (the wall's statics), where
// /proc is writable for CUDA's sake (landlock variant proc_writable) too; seccomp lets prctl set dumpable only to 0.
PyObject *w_shut_raw(PyObject *, PyObject *args)
{
    PyObject *roots;
    if (!PyArg_ParseTuple(args, "O", &roots))
        return nullptr;
    if (g_phase.load() != kFree || g_serial > 0 || !g_ready)
        return refuse(nullptr, nullptr, nullptr);
    for (Py_ssize_t i = 0; i < PySequence_Size(roots); ++i) {
        PyObject *d = PySequence_GetItem(roots, i);
        const char *r = d != nullptr ? PyUnicode_AsUTF8(d) : nullptr;
        if (r != nullptr)
            g_code_roots.emplace_back(r);
        Py_XDECREF(d);
    }
    PyErr_Clear();
    int failed = 0, gated = 0;
    if (PyObject *lib = PyImport_ImportModule("triton._C.libtriton")) {
        PyObject *interp = PyObject_GetAttrString(lib, "interpreter");
        for (const char *name : {"load", "store", "atomic_cas", "atomic_rmw"}) {
            PyObject *f = interp != nullptr ? PyObject_GetAttrString(interp, name) : nullptr;
            if (f == nullptr)
                continue;
            const int r = gate_vectorcall(f, std::string("triton's interpreter: ") + name);
            failed += r < 0;
            gated += r > 0;
            Py_DECREF(f);
        }
        Py_XDECREF(interp);
        Py_DECREF(lib);
    }
    PyErr_Clear();
    if (PySys_AddAuditHook(code_audit, nullptr) < 0)
        ++failed;
    PyErr_Clear();
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
        ++failed;
    if (failed) {
        PyErr_Format(PyExc_RuntimeError, "sieve runtime wall: %d raw-memory entry points could not be shut", failed);
        return nullptr;
    }
    return PyLong_FromLong(gated);
}

} // namespace sieve_wall
