// ctypes shut and numpy's array interface at a raw address (docs/VERIFIER.md, "No raw memory, no foreign calls");
// the other ways to raw memory: triton's interpreter functions, made code objects, /proc/self/mem (shut_raw).
#include "wall.h"

#include <ATen/core/dispatch/Dispatcher.h>

#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

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
    return native_refuse(what, !python_where().empty());
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
struct Gated
{
    vectorcallfunc real;
    std::string name;
    bool in_launch; // allowed inside an interpreted launch of the answer's kernel (the interpreter's own)
};
std::map<PyObject *, Gated> g_gated; // function object -> its real vectorcall

// A gated function runs only where it may: the interpreter's, inside an interpreted launch the wall runs (on the
// main thread); the others never.
bool gate_open(bool in_launch)
{
    return in_launch && g_interpreted && g_in_launch.load() > 0 && std::this_thread::get_id() == g_main;
}

// numpy's array type and its builtin dtypes (each with its element size), as they were at shut_raw: what triton's
// interpreter hands its C load and store, and nothing else may reach them (outside_launch)
PyTypeObject *g_ndarray = nullptr;
std::unordered_map<PyObject *, Py_ssize_t> g_np_dtypes;

void keep_numpy_types()
{
    PyObject *np = PyImport_ImportModule("numpy");
    PyObject *nd = np != nullptr ? PyObject_GetAttrString(np, "ndarray") : nullptr;
    if (nd != nullptr && PyType_Check(nd))
        g_ndarray = reinterpret_cast<PyTypeObject *>(nd); // the reference kept
    else
        Py_XDECREF(nd);
    PyObject *dtype = np != nullptr ? PyObject_GetAttrString(np, "dtype") : nullptr;
    for (const char *t : {"bool_", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16",
                          "float32", "float64"}) {
        PyObject *d = dtype != nullptr ? PyObject_CallFunction(dtype, "s", t) : nullptr;
        PyObject *size = d != nullptr ? PyObject_GetAttrString(d, "itemsize") : nullptr;
        if (size != nullptr && PyLong_Check(size))
            g_np_dtypes.emplace(d, PyLong_AsSsize_t(size)); // the dtype's reference kept
        else
            Py_XDECREF(d);
        Py_XDECREF(size);
        PyErr_Clear();
    }
    Py_XDECREF(dtype);
    Py_XDECREF(np);
    PyErr_Clear();
}

// A gated interpreter access's addresses (load(ptrs, mask, other, dtype), store(ptrs, value, mask),
// atomic_cas(ptrs, cmp, val, sem), atomic_rmw(op, ptrs, val, mask, sem)): each one its mask leaves active, with its
// element's size, must lie in a tensor the launch was given (g_cur_mine). hooks.py's check before the builder's own
// call says the same in Python; this one holds where that is gone round: the builder's function taken from the
// check's closure, or triton's C function called by the answer's Python (redteam/wall2
// h_r41_interp_raw_clear_violations zeroed the wall's own count of refusals with a store). The arguments must be
// what triton's interpreter hands the C function: exact numpy arrays (an object whose __dlpack__ named other memory
// than its buffer did: h_r42_dlpack_two_faced_ptrs_clear_violations), the mask and values of the pointers' shape
// (triton's C code indexes them flat by the pointer's index: a mask numpy would broadcast covered other pointers than
// the ones the store wrote, h_r42_mask_shape_clear_violations), a load's element size that of its dtype argument, one
// of numpy's own dtypes. "" when all are inside.
std::string outside_launch(const std::string &name, PyObject *const *args, Py_ssize_t n)
{
    auto ends = [&](const char *t) {
        const size_t k = std::strlen(t);
        return name.size() >= k && name.compare(name.size() - k, k, t) == 0;
    };
    int p = -1, m = -1, d = -1; // the pointers, the mask, a load's dtype
    std::vector<int> v;         // the arrays of values read or written beside the pointers
    if (ends(": load"))
        p = 0, m = 1, v = {2}, d = 3;
    else if (ends(": store"))
        p = 0, v = {1}, m = 2;
    else if (ends(": atomic_cas"))
        p = 0, v = {1, 2};
    else if (ends(": atomic_rmw"))
        p = 1, v = {2}, m = 3;
    else
        return "";
    if (n <= std::max({p, m, d, v.back()}))
        return name + ": too few arguments";
    auto exact = [](PyObject *o) { return g_ndarray != nullptr && Py_TYPE(o) == g_ndarray; };
    bool ok = exact(args[p]) && (m < 0 || exact(args[m]));
    for (int i : v)
        ok = ok && exact(args[i]);
    Py_ssize_t size = 0;
    if (d >= 0) {
        auto dt = g_np_dtypes.find(args[d]);
        ok = ok && dt != g_np_dtypes.end();
        size = ok ? dt->second : 0;
    }
    if (!ok)
        return name + ": arguments that are not the interpreter's arrays";
    Py_buffer pb{}, mb{};
    std::vector<Py_buffer> vb(v.size());
    const int flags = PyBUF_STRIDED_RO | PyBUF_FORMAT;
    int held = 0; // buffers taken: the pointers, the mask, then each of v
    ok = PyObject_GetBuffer(args[p], &pb, flags) == 0;
    held += ok;
    ok = ok && (m < 0 || PyObject_GetBuffer(args[m], &mb, flags) == 0);
    held += ok && m >= 0;
    for (size_t i = 0; ok && i < v.size(); ++i) {
        ok = PyObject_GetBuffer(args[v[i]], &vb[i], flags) == 0;
        held += ok;
    }
    PyErr_Clear();
    auto same_shape = [&](const Py_buffer &b) {
        if (b.ndim != pb.ndim)
            return false;
        for (int i = 0; i < b.ndim; ++i)
            if (b.shape[i] != pb.shape[i])
                return false;
        return true;
    };
    std::string bad;
    if (!ok || pb.itemsize != 8 || (m >= 0 && (mb.itemsize != 1 || !same_shape(mb))))
        bad = "arguments that are not the interpreter's arrays";
    for (size_t i = 0; bad.empty() && i < v.size(); ++i)
        if (!same_shape(vb[i]) || (d < 0 && i > 0 && vb[i].itemsize != vb[0].itemsize))
            bad = "values not of the pointers' shape";
    if (d < 0 && bad.empty())
        size = vb[0].itemsize;
    const int nd = pb.ndim;
    Py_ssize_t total = 1;
    for (int i = 0; i < nd; ++i)
        total *= pb.shape[i];
    std::vector<Py_ssize_t> idx(static_cast<size_t>(nd), 0);
    for (Py_ssize_t k = 0; bad.empty() && k < total; ++k) {
        Py_ssize_t po = 0, mo = 0;
        for (int i = 0; i < nd; ++i) {
            po += idx[static_cast<size_t>(i)] * pb.strides[i];
            if (m >= 0)
                mo += idx[static_cast<size_t>(i)] * mb.strides[i];
        }
        for (int i = nd - 1; i >= 0; --i) { // the next index
            if (++idx[static_cast<size_t>(i)] < pb.shape[i])
                break;
            idx[static_cast<size_t>(i)] = 0;
        }
        if (m >= 0 && *(static_cast<const char *>(mb.buf) + mo) == 0)
            continue;
        unsigned long a = 0;
        std::memcpy(&a, static_cast<const char *>(pb.buf) + po, sizeof a);
        const auto sz = static_cast<unsigned long>(size);
        bool in = false;
        for (const Range &r : g_cur_mine)
            in = in || (a >= r.first && a <= r.second && sz <= r.second - a);
        if (!in) {
            char hex[32];
            std::snprintf(hex, sizeof hex, "%#lx", a);
            bad = std::string("an address outside every tensor the launch was given (") + hex + ")";
        }
    }
    // release what was taken, in order: the pointers, the mask, the values
    if (held > 0)
        PyBuffer_Release(&pb);
    int next = 1;
    if (m >= 0 && held > next++)
        PyBuffer_Release(&mb);
    for (size_t i = 0; i < v.size() && held > next; ++i, ++next)
        PyBuffer_Release(&vb[i]);
    return bad.empty() ? "" : name + ": " + bad;
}

PyObject *gated_call(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    auto it = g_gated.find(callable);
    if (it == g_gated.end())
        return native_refuse("a gated native function");
    if (!gate_open(it->second.in_launch))
        return native_refuse(it->second.name + (it->second.in_launch ? " (raw memory outside an interpreted launch)"
                                                                     : " (raw device memory or compute with no op)"));
    // inside the answer's launch: the Python that loads or stores must be the answer's kernel code (or triton's on
    // its behalf), not another file's kernel body run as a plain function (callees.cpp interpreted_caller_ok)
    std::string file;
    std::string outside = outside_launch(it->second.name, args, PyVectorcall_NARGS(nargsf));
    if (outside.empty() && !kernel_watch_holds())
        outside = g_in_grid > 0 ? "a load or store from the answer's grid function"
                                : "the wall's watch of the kernel's calls was taken out, or another thread of Python's "
                                  "runs (callees.cpp kernel_calls)";
    if (!outside.empty() || !interpreted_caller_ok(&file)) {
        const std::string why =
            !outside.empty() ? outside : "Triton code not of the answer's file ran in its launch (" + file + ")";
        const std::string where = python_where();
        {
            std::lock_guard<std::mutex> lock(g_mu);
            record(why.c_str(), g_phase.load(), false, where.empty() ? "no line of the answer on the stack" : where);
        }
        PyErr_SetString(PyExc_RuntimeError, ("sieve runtime wall: refused: " + why).c_str());
        return nullptr;
    }
    return it->second.real(callable, args, nargsf, kwnames);
}

// A triton built with pybind11 (before its move to nanobind) makes them builtin functions whose PyMethodDef the call
// reads (VARARGS|KEYWORDS: no vectorcall of their own): their ml_meth is pointed at a gate of its own, one per slot.
constexpr int kGatedMeths = 16;
struct GatedMeth
{
    AnyCall real;
    const char *name;
    bool in_launch;
};
GatedMeth g_gated_meth[kGatedMeths] = {};
int g_gated_meths = 0;

template <int N> PyObject *gated_meth(PyObject *self, void *a, void *b, void *c)
{
    const GatedMeth &g = g_gated_meth[N];
    if (!gate_open(g.in_launch))
        return native_refuse(std::string(g.name) + " (raw memory or compute with no op)");
    PyObject *t = static_cast<PyObject *>(a); // METH_VARARGS: the arguments' tuple
    const std::string outside = PyTuple_Check(t) ? outside_launch(g.name, &PyTuple_GET_ITEM(t, 0), PyTuple_GET_SIZE(t))
                                                 : std::string(g.name) + ": arguments not in a tuple";
    if (!outside.empty())
        return native_refuse(outside);
    return g.real(self, a, b, c);
}

template <int... N> constexpr std::array<AnyCall, sizeof...(N)> gated_table(std::integer_sequence<int, N...>)
{
    return {&gated_meth<N>...};
}
const auto kGatedFns = gated_table(std::make_integer_sequence<int, kGatedMeths>{});

int gate_meth(PyObject *f, const std::string &name, bool in_launch)
{
    PyMethodDef *def = def_of(f);
    if (def == nullptr)
        return -1;
    for (int i = 0; i < g_gated_meths; ++i)
        if (def->ml_meth == reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(kGatedFns[i])))
            return 0;
    if (g_gated_meths == kGatedMeths)
        return -1;
    const int n = g_gated_meths++;
    g_gated_meth[n] = {reinterpret_cast<AnyCall>(reinterpret_cast<void (*)()>(def->ml_meth)), strdup(name.c_str()),
                       in_launch};
    def->ml_meth = reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(kGatedFns[n]));
    return 1;
}

int gate_vectorcall(PyObject *f, const std::string &name, bool in_launch)
{
    PyTypeObject *t = Py_TYPE(f);
    if (PyCFunction_Check(f))
        return gate_meth(f, name, in_launch);
    if (!PyType_HasFeature(t, Py_TPFLAGS_HAVE_VECTORCALL) || t->tp_vectorcall_offset <= 0)
        return -1;
    auto *slot = reinterpret_cast<vectorcallfunc *>(reinterpret_cast<char *>(f) + t->tp_vectorcall_offset);
    if (*slot == gated_call)
        return 0;
    if (*slot == nullptr)
        return -1;
    Py_INCREF(f);
    g_gated[f] = {*slot, name, in_launch};
    *slot = gated_call;
    return 1;
}

// Code objects made from bytes: a LOAD_CONST past co_consts in a code.replace'd co_code, or a crafted marshal
// stream, reads any address as an object (a bytearray over all memory, in pure Python). The wall's own audit hook
// (C, so no Python of the answer's can remove or switch it) refuses code.__new__ (CodeType(), code.replace) to
// everyone (torch's one user, the renamer of decorated functions' frames, is a no-op in the candidate: Wall.start),
// and marshal.loads but to importlib's own read of a .pyc under the library folders whose bytes are the file's.
// Python's own compile() of source or an AST makes valid code.
std::vector<std::string> g_code_roots; // folders whose .pyc files the importer may unmarshal
// where each trusted loader may load native modules from: triton's driver (the candidate's Triton cache), the
// builder's client (the built extensions' folder): create_dynamic_guard, cache_audit
std::vector<std::string> g_driver_roots, g_client_roots;

bool ends_with(const std::string &s, const char *tail)
{
    const size_t n = std::strlen(tail);
    return s.size() >= n && s.compare(s.size() - n, n, tail) == 0;
}

bool under_any(const std::string &path, const std::vector<std::string> &roots)
{
    for (const std::string &r : roots)
        if (path.compare(0, r.size(), r) == 0)
            return true;
    return false;
}

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
        const bool under = under_any(r, g_code_roots);
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

// The Triton cache the driver loads launchers from (g_driver_roots) is written by triton's cache manager alone: a
// shared object planted there at a launcher's key would be loaded by the trusted driver, native code of the answer's
// in its process. An event that writes a name there (open for writing, a rename or link to or from there, a symlink
// or folder made there) is refused unless every frame from the event out to triton's runtime/cache.py is trusted
// code, and, for a shared object, the frames past the cache's and triton's build helpers' are its backends'
// driver.py (the answer calling the cache or the build helper with a key of its choosing is not). Paths are resolved
// as the kernel would: relative to the event's folder descriptor (through /proc/self/fd) or the working folder, every
// existing component's links followed. `open` carries no folder descriptor: a relative shared object's name is
// refused to all but the cache's writer (redteam/wall2 h_r14_*: test WorkerWallUnit
// test_the_triton_cache_is_written_by_triton_alone).
std::string fd_path(long fd)
{
    char buf[PATH_MAX];
    const std::string link = "/proc/self/fd/" + std::to_string(fd);
    const ssize_t n = readlink(link.c_str(), buf, sizeof buf - 1);
    return n > 0 ? std::string(buf, static_cast<size_t>(n)) : link;
}

// Path objects whose file system path is read with no code of the answer's: pathlib's own (exact types) and
// os.DirEntry. Any other object's __fspath__ is the answer's to write, and could name one file to the open and
// another to the wall (redteam/wall2 h_r15_cache_plant_two_faced_fspath): such a path is unreadable here.
std::vector<PyObject *> g_path_types;

bool readable_path(PyObject *p)
{
    if (p == nullptr || PyUnicode_Check(p) || PyBytes_Check(p) || PyLong_Check(p))
        return true;
    for (PyObject *t : g_path_types)
        if (reinterpret_cast<PyObject *>(Py_TYPE(p)) == t)
            return true;
    return false;
}

// An absolute path as the kernel resolves it: every existing component's links followed, the components that do not
// exist yet appended as given. A link whose target does not exist is followed too: open(O_CREAT) creates its target
// (a link in the scratch folder to a new name in the cache).
std::string resolve(std::string head)
{
    std::string tail;
    for (int i = 0, links = 0; i < 64 && !head.empty(); ++i) {
        char real[PATH_MAX];
        if (realpath(head.c_str(), real) != nullptr)
            return std::string(real) + tail;
        struct stat st;
        char target[PATH_MAX];
        const ssize_t n = lstat(head.c_str(), &st) == 0 && S_ISLNK(st.st_mode) && links < 8
                              ? readlink(head.c_str(), target, sizeof target - 1)
                              : -1;
        const size_t cut = head.find_last_of('/');
        if (n > 0) { // a dangling link: its target, relative to the link's folder
            ++links;
            const std::string t(target, static_cast<size_t>(n));
            head = t[0] == '/' ? t : head.substr(0, cut == std::string::npos ? 0 : cut) + "/" + t;
            continue;
        }
        if (cut == std::string::npos)
            break;
        tail = head.substr(cut) + tail;
        head = head.substr(0, cut);
    }
    return head + tail;
}

std::string working_folder()
{
    char cwd[PATH_MAX];
    return getcwd(cwd, sizeof cwd) != nullptr ? cwd : "";
}

// the path an event names (str, bytes or a readable path object; "" for a descriptor or an unreadable one) as
// given, and as the kernel resolves it
std::string event_path(PyObject *p, long dir_fd, std::string *as_given = nullptr)
{
    PyObject *fs = p != nullptr && !PyLong_Check(p) && readable_path(p) ? PyOS_FSPath(p) : nullptr;
    std::string given;
    if (fs != nullptr && PyUnicode_Check(fs)) {
        const char *u = PyUnicode_AsUTF8(fs);
        given = u != nullptr ? u : "";
    } else if (fs != nullptr && PyBytes_Check(fs)) {
        given.assign(PyBytes_AS_STRING(fs), static_cast<size_t>(PyBytes_GET_SIZE(fs)));
    }
    Py_XDECREF(fs);
    PyErr_Clear();
    if (as_given != nullptr)
        *as_given = given;
    if (given.empty())
        return "";
    return resolve(given[0] == '/' ? given : (dir_fd >= 0 ? fd_path(dir_fd) : working_folder()) + "/" + given);
}

// a shared object's name: "x.so", or a versioned "x.so.1" ("k.source" is none)
bool shared_object_name(const std::string &path)
{
    const size_t slash = path.find_last_of('/');
    const std::string name = path.substr(slash == std::string::npos ? 0 : slash + 1);
    const size_t at = name.find(".so");
    return at != std::string::npos && (at + 3 == name.size() || name[at + 3] == '.');
}

// whether triton's cache manager writes this (and, for a shared object, for triton's driver)
bool triton_cache_writer(bool shared_object)
{
    bool ok = false, past_cache = false, past_driver = false;
    for_each_frame(64, [&](PyFrameObject *, PyCodeObject *code, const char *file, int) {
        const std::string fn = file != nullptr ? file : "";
        if (g_trusted_code.count(reinterpret_cast<PyObject *>(code)) == 0)
            return false; // code of the answer's (a callback or finalizer within the cache's own frames too)
        const bool cache = ends_with(fn, "triton/runtime/cache.py");
        if (!past_cache) {
            past_cache = cache;
            ok = cache && !shared_object;
            return !cache || shared_object;
        }
        if (cache || ends_with(fn, "triton/runtime/build.py"))
            return true;
        const bool driver = fn.find("/triton/backends/") != std::string::npos && ends_with(fn, "/driver.py");
        if (driver) {
            past_driver = true;
            return true;
        }
        ok = past_driver; // and the driver called by triton's own code, not by the answer (create_dynamic_guard)
        return false;
    });
    return ok;
}

int cache_audit(const char *event, PyObject *args)
{
    if (g_driver_roots.empty() || !PyTuple_Check(args) || PyTuple_GET_SIZE(args) < 1)
        return 0;
    const Py_ssize_t n = PyTuple_GET_SIZE(args);
    auto arg_long = [&](Py_ssize_t i) {
        const long v = i < n && PyLong_Check(PyTuple_GET_ITEM(args, i)) ? PyLong_AsLong(PyTuple_GET_ITEM(args, i)) : -1;
        PyErr_Clear();
        return v;
    };
    std::vector<std::string> paths; // resolved
    bool relative_shared_object = false;
    const bool open = std::strcmp(event, "open") == 0, two = std::strcmp(event, "os.rename") == 0 ||
                                                             std::strcmp(event, "os.link") == 0 ||
                                                             std::strcmp(event, "os.symlink") == 0;
    if (!open && !two && std::strcmp(event, "os.mkdir") != 0)
        return 0;
    if (open) {
        PyObject *mode = n > 1 ? PyTuple_GET_ITEM(args, 1) : nullptr;
        const char *m = mode != nullptr && PyUnicode_Check(mode) ? PyUnicode_AsUTF8(mode) : nullptr;
        PyErr_Clear();
        const long flags = arg_long(2);
        if (!((m != nullptr && std::strpbrk(m, "wax+") != nullptr) ||
              (flags > 0 && (flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND)) != 0)))
            return 0; // not writing
    }
    for (Py_ssize_t i = 0; i < n && i < (two ? 2 : 1); ++i) {
        PyObject *a = PyTuple_GET_ITEM(args, i);
        std::string what;
        // pathlib's classes are Python classes: patched, they would read one path to the call and another here
        // (their dicts are in the snapshot: Wall.start)
        const bool pathlib = !PyUnicode_Check(a) && !PyBytes_Check(a) && !PyLong_Check(a) && a != Py_None;
        if (!readable_path(a) || (pathlib && !snapshot_holds(&what))) {
            native_refuse(std::string("writing through a path object the wall cannot read without running it (") +
                          event + ")");
            return -1;
        }
    }
    if (open) {
        std::string given;
        paths.push_back(event_path(PyTuple_GET_ITEM(args, 0), -1, &given));
        relative_shared_object = !given.empty() && given[0] != '/' && shared_object_name(given);
    } else if (std::strcmp(event, "os.rename") == 0 || std::strcmp(event, "os.link") == 0) {
        paths.push_back(event_path(PyTuple_GET_ITEM(args, 0), arg_long(2)));
        if (n > 1)
            paths.push_back(event_path(PyTuple_GET_ITEM(args, 1), arg_long(3)));
    } else if (std::strcmp(event, "os.symlink") == 0) {
        if (n >
            1) { // the link, and what it points to, relative to the link's folder: a link to a new name in the cache
            paths.push_back(event_path(PyTuple_GET_ITEM(args, 1), arg_long(2)));
            std::string target;
            event_path(PyTuple_GET_ITEM(args, 0), -1, &target);
            const size_t cut = paths.back().find_last_of('/');
            if (!target.empty())
                paths.push_back(resolve(target[0] == '/' ? target : paths.back().substr(0, cut) + "/" + target));
        }
    } else if (std::strcmp(event, "os.mkdir") == 0) {
        paths.push_back(event_path(PyTuple_GET_ITEM(args, 0), arg_long(2)));
    } else {
        return 0;
    }
    std::string named = relative_shared_object ? paths[0] : ""; // the path the refusal names
    bool shared = relative_shared_object;
    for (const std::string &p : paths) {
        if (named.empty() && !p.empty() && under_any(p + "/", g_driver_roots))
            named = p;
        shared = shared || shared_object_name(p);
    }
    if (named.empty() || triton_cache_writer(shared))
        return 0;
    native_refuse(std::string("writing into the Triton cache but by triton's cache manager (") + event + " " + named +
                  ")");
    return -1;
}

// The environment a build reads (triton's TRITON_* knobs, the compiler, gcc's search paths, the loader's), as it
// was when the wall started: a driver load is refused where it changed (an answer's CPATH put a header of its own
// into a legitimate launcher, which the trusted chain then loaded: the GPU review of round 15)
std::map<std::string, std::string> g_build_env;

bool build_variable(const std::string &name)
{
    static const char *const kNames[] = {"CC",
                                         "CXX",
                                         "CPATH",
                                         "C_INCLUDE_PATH",
                                         "LIBRARY_PATH",
                                         "CPLUS_INCLUDE_PATH",
                                         "COMPILER_PATH",
                                         "GCC_EXEC_PREFIX",
                                         "PATH"};
    if (name.rfind("TRITON", 0) == 0 || name.rfind("LD_", 0) == 0)
        return true;
    for (const char *n : kNames)
        if (name == n)
            return true;
    return false;
}

std::map<std::string, std::string> build_env()
{
    std::map<std::string, std::string> env;
    for (char **e = environ; e != nullptr && *e != nullptr; ++e) {
        const std::string kv(*e);
        const size_t eq = kv.find('=');
        if (eq != std::string::npos && build_variable(kv.substr(0, eq)))
            env[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    return env;
}

// No process of the answer's: a process may start only from triton's own code, the frames from the event out to
// triton's all trusted, and the outermost of triton's run of frames (its entry) not its build helpers
// (runtime/build.py), which compile whatever they are given wherever they are told: the answer called `_build` with the
// cache's key folder as the output folder, and gcc wrote a launcher there with no audit event of Python's (the GPU
// review of round 15), then with a relative one from the cache's parent (redteam/wall2
// h_r16_cache_plant_relative_build). The process's build environment is the wall's start's (a CPATH of the answer's in
// a build triton caches and loads later), triton's state holds, and no argument names the cache, as given, after a
// flag's letter or an `=`, in a `,` or `:` list, or resolved against the process's working folder; no argument is a
// response file (`@file`): triton's own builds name a temporary folder under the scratch folder, never the cache.
PyObject *nth_arg(int flags, void *a, void *b, Py_ssize_t i);

bool triton_starts_process()
{
    // innermost first: the standard library's frames that start it, then triton's, then whoever called triton's entry
    bool in_triton = false, ok = false, ended = true;
    std::string entry;
    constexpr int kDepth = 400;
    for_each_frame(kDepth, [&](PyFrameObject *, PyCodeObject *code, const char *file, int depth) {
        const std::string fn = file != nullptr ? file : "";
        const bool triton = fn.find("/triton/") != std::string::npos;
        ended = false;
        if (g_trusted_code.count(reinterpret_cast<PyObject *>(code)) == 0 || (in_triton && !triton)) {
            ok = in_triton; // the answer's frame, or a trusted caller: past triton's run of frames
            return false;
        }
        if (triton) {
            in_triton = true;
            entry = fn;
        }
        ended = depth + 1 < kDepth; // a stack deeper than the walk is no stack that ends in triton
        return true;
    });
    // a finalizer or a C callable of the harness's calling triton's build helpers has them as its entry too
    return (ok || (ended && in_triton)) && !ends_with(entry, "triton/runtime/build.py");
}

bool names_cache(const std::string &word, const std::string &cwd)
{
    std::vector<std::string> parts{word};
    if (word.size() > 2 && word[0] == '-')
        parts.push_back(word.substr(2));
    if (const size_t eq = word.find('='); eq != std::string::npos)
        parts.push_back(word.substr(eq + 1));
    for (size_t i = 0, n = parts.size(); i < n; ++i)
        for (size_t at = 0, next; at <= parts[i].size(); at = next + 1) {
            next = parts[i].find_first_of(",:", at);
            if (next == std::string::npos)
                next = parts[i].size();
            if (at > 0 || next < parts[i].size())
                parts.push_back(parts[i].substr(at, next - at));
        }
    for (const std::string &p : parts) {
        if (p.empty())
            continue;
        const std::string r = resolve(p[0] == '/' ? p : cwd + "/" + p);
        for (const std::string &root : g_driver_roots)
            if (p.find(root.substr(0, root.size() - 1)) != std::string::npos || under_any(r + "/", {root}))
                return true;
    }
    return false;
}

// The folders a compiler's include, library, plugin and linker paths may name: none the candidate can write (an
// answer's Python.h through a patched sysconfig, a gcc plugin, an rpath into the scratch folder: round 17)
bool read_only_path(const std::string &resolved)
{
    static const std::vector<std::string> kSystem = {"/usr/", "/lib/", "/lib64/", "/opt/", "/bin/", "/sbin/"};
    return under_any(resolved + "/", g_code_roots) || under_any(resolved + "/", kSystem);
}

// Why a process may not run these words in this folder with this build environment ("" where it may): a response file,
// a word naming the Triton cache, a compiler's path flag naming a folder outside the read-only ones.
std::string process_fault(const std::vector<std::string> &words, const std::string &cwd,
                          const std::map<std::string, std::string> &env)
{
    if (env != g_build_env)
        return "with the build's environment changed";
    static const char *const kPathFlags[] = {
        "-I",       "-L",           "-B",        "-isystem",  "-iquote",     "-idirafter",     "-include", "-imacros",
        "-iprefix", "-iwithprefix", "-isysroot", "--sysroot", "-fplugin",    "-specs",         "-wrapper", "-T",
        "-Wl,",     "-Wa,",         "-Wp,",      "-Xlinker",  "-Xassembler", "-Xpreprocessor", "-rpath",   "-R"};
    // triton's build names its own temporary folder with -I (the source's): a folder the candidate can write is named
    // only where it holds nothing but the command's own files (no header of the answer's beside the source)
    std::set<std::string> own;
    for (const std::string &w : words)
        if (!w.empty() && w[0] != '-')
            own.insert(resolve(w[0] == '/' ? w : cwd + "/" + w));
    auto holds_only_own = [&](const std::string &folder) {
        DIR *d = opendir(folder.c_str());
        if (d == nullptr)
            return false;
        bool only = true;
        while (const dirent *e = readdir(d))
            if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0 &&
                own.count(folder + "/" + e->d_name) == 0)
                only = false;
        closedir(d);
        return only;
    };
    for (size_t i = 0; i < words.size(); ++i) {
        const std::string &w = words[i];
        if (!w.empty() && w[0] == '@')
            return "with a response file";
        if (names_cache(w, cwd))
            return "that names the Triton cache";
        for (const char *flag : kPathFlags) {
            if (w.rfind(flag, 0) != 0)
                continue;
            // the value attached (`-I/x`, `-fplugin=/x`, `-Wl,-rpath,/x`) or the next word (`-I /x`)
            std::string value = w.size() > std::strlen(flag) ? w.substr(std::strlen(flag)) : "";
            if (value.empty() && i + 1 < words.size())
                value = words[i + 1];
            for (size_t at = 0, next; at <= value.size(); at = next + 1) {
                next = value.find_first_of(",:=", at);
                if (next == std::string::npos)
                    next = value.size();
                const std::string part = value.substr(at, next - at);
                if (part.empty() || (part[0] == '-' && part.find('/') == std::string::npos))
                    continue;
                const std::string r = resolve(part[0] == '/' ? part : cwd + "/" + part);
                if (!read_only_path(r) && !(std::strcmp(flag, "-I") == 0 && holds_only_own(r)))
                    return "with a compiler's path outside the library folders (" + std::string(flag) + " " + part +
                           ")";
            }
            break;
        }
    }
    return "";
}

int spawn_audit(const char *event, PyObject *args)
{
    const bool popen = std::strcmp(event, "subprocess.Popen") == 0;
    if (g_driver_roots.empty() || (!popen && std::strcmp(event, "os.posix_spawn") != 0 &&
                                   std::strcmp(event, "os.exec") != 0 && std::strcmp(event, "os.system") != 0 &&
                                   std::strcmp(event, "os.spawn") != 0 && std::strcmp(event, "pty.spawn") != 0))
        return 0;
    auto refuse_start = [&](const std::string &why) {
        native_refuse("starting a process " + why + " (" + event + ")");
        return -1;
    };
    // triton starts its compilers through subprocess with its defaults (close_fds: fork_exec, never posix_spawn), and
    // execs nothing: an exec from a preexec_fn in the child ran gcc with a plugin of the answer's (round 17)
    if (!popen)
        return refuse_start("but through subprocess");
    if (!triton_starts_process())
        return refuse_start("but from triton's own code");
    std::string what;
    if (!snapshot_holds(&what))
        return refuse_start("with triton's state changed: " + what);
    // (executable, args, cwd, env): the words as the event has them, a first look; fork_exec_guard judges what runs
    std::vector<std::string> words;
    auto add = [&](PyObject *o) {
        if (o != nullptr && PyUnicode_Check(o)) {
            if (const char *u = PyUnicode_AsUTF8(o))
                words.emplace_back(u);
        } else if (o != nullptr && PyBytes_Check(o)) {
            words.emplace_back(PyBytes_AS_STRING(o), static_cast<size_t>(PyBytes_GET_SIZE(o)));
        }
        PyErr_Clear();
    };
    const Py_ssize_t n = PyTuple_Check(args) ? PyTuple_GET_SIZE(args) : 0;
    for (Py_ssize_t i = 0; i < n && i < 3; ++i) {
        PyObject *a = PyTuple_GET_ITEM(args, i);
        add(a);
        if (PyList_Check(a) || PyTuple_Check(a))
            for (Py_ssize_t j = 0; j < PySequence_Size(a); ++j) {
                PyObject *w = PySequence_GetItem(a, j);
                add(w);
                Py_XDECREF(w);
            }
    }
    PyErr_Clear();
    std::string cwd = working_folder();
    if (n > 2 && (PyUnicode_Check(PyTuple_GET_ITEM(args, 2)) || PyBytes_Check(PyTuple_GET_ITEM(args, 2))))
        cwd = event_path(PyTuple_GET_ITEM(args, 2), -1);
    if (const std::string why = process_fault(words, cwd, g_build_env); !why.empty())
        return refuse_start(why);
    return 0;
}

int code_audit(const char *event, PyObject *args, void *)
{
    if (const int r = cache_audit(event, args); r != 0)
        return r;
    if (const int r = spawn_audit(event, args); r != 0)
        return r;
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

// Operators the JIT registers and the dispatcher does not have run with no RecordFunction the wall sees:
// `aten::_tensor_to_list` reads a tensor's data pointer into Python lists (redteam/wall2 h_r12_tensor_to_list_jit_op),
// `prim::tolist` the same. torch.ops and torch._C._jit_get_operation reach them by name: a name with no operator in
// the dispatcher is refused to all but the harness's own calls; dispatcher operators (the answer's own torch.library
// ones too) are looked up as before.
AnyCall g_op_lookup[2] = {nullptr, nullptr};
int g_op_flags[2] = {0, 0};

// Whether torch.ops may hand out the operator named: one the dispatcher has, or one outside the JIT's builtin
// namespaces (torch registers a few of its own lazily, as _c10d_functional's, which a TorchDispatchMode imports).
bool dispatcher_has(const char *qualified)
{
    const std::string q(qualified);
    if (q.rfind("aten::", 0) != 0 && q.rfind("prim::", 0) != 0 && q.find("::") != std::string::npos)
        return true;
    for (const c10::OperatorName &on : c10::Dispatcher::singleton().getAllOpNames())
        if (on.name == qualified)
            return true;
    return false;
}

// A C function's positional argument i (borrowed), whatever its calling convention (AnyCall's registers): in the
// tuple (METH_VARARGS) or the vector (METH_FASTCALL) the second register holds.
PyObject *nth_arg(int flags, void *a, void *b, Py_ssize_t i)
{
    if (flags & METH_FASTCALL)
        return PyVectorcall_NARGS(reinterpret_cast<size_t>(b)) > i ? static_cast<PyObject *const *>(a)[i] : nullptr;
    auto *args = static_cast<PyObject *>(a);
    return args != nullptr && PyTuple_Check(args) && PyTuple_GET_SIZE(args) > i ? PyTuple_GET_ITEM(args, i) : nullptr;
}

PyObject *first_arg(int flags, void *a, void *b)
{
    return nth_arg(flags, a, b, 0);
}

template <int N> PyObject *op_lookup(PyObject *self, void *a, void *b, void *c)
{
    PyObject *name = first_arg(g_op_flags[N], a, b);
    const char *q = name != nullptr && PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : nullptr;
    PyErr_Clear();
    if (q == nullptr || (!dispatcher_has(q) && !(g_phase.load() == kHarness && harness_own_call())))
        return native_refuse(std::string("an operator the dispatcher does not have (") + (q ? q : "?") +
                             "): the JIT runs it with no op seen");
    PyObject *r = g_op_lookup[N](self, a, b, c);
    // _get_operation_overload's (op, op_dk, tags): the new overload's _op_dk goes through the wall (route_op_dk)
    if (N == 1 && r != nullptr && g_op_dk_slot >= 0 && PyTuple_Check(r) && PyTuple_GET_SIZE(r) >= 2 &&
        route_op_dk(PyTuple_GET_ITEM(r, 1)) < 0) {
        Py_DECREF(r);
        return native_refuse("an operator's _op_dk the wall cannot route");
    }
    return r;
}

int guard_op_lookup(PyObject *f, int n, AnyCall trampoline)
{
    PyMethodDef *def = def_of(f);
    if (def == nullptr)
        return -1;
    if (def->ml_meth == reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(trampoline)))
        return 0;
    g_op_flags[n] = def->ml_flags;
    g_op_lookup[n] = reinterpret_cast<AnyCall>(reinterpret_cast<void (*)()>(def->ml_meth));
    def->ml_meth = reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(trampoline));
    return 1;
}

// A native module loaded after the wall (importlib's _imp.create_dynamic, the dlopen of every extension module) is
// one of the installed packages' (its file under code_roots), or one the harness's own loaders load: triton's driver
// its launchers, the builder's client the answer's built extension (judged by its imports). triton's build helpers
// compile and import any C source they are given, and an answer that called them got a C softmax over the input's
// data pointer with no op seen (redteam/wall2 h_r12_triton_build_c_module). Past importlib's and triton's build
// frames (trusted code objects of those files), the caller must be trusted code of triton's backends' driver.py or of
// the builder's client. The spec is importlib's own ModuleSpec with a str origin, so what is checked is what loads.
// Each loader loads only from its own folder, held here from the wall's start: triton's driver from the candidate's
// Triton cache (TRITON_CACHE_DIR then, not what triton's knobs say later), the builder's client from the folder the
// worker writes built extensions to, which the candidate cannot write: a reply of the answer's own making (the
// client's `command` swapped in its closure) named a shared object in the scratch folder (test WorkerWallUnit
// test_native_modules_load_only_from_their_loaders_folders).
AnyCall g_create_dynamic = nullptr;
int g_create_dynamic_flags = 0;
PyObject *g_module_spec = nullptr; // importlib's ModuleSpec

PyObject *g_origin_name = nullptr, *g_name_name = nullptr; // "origin", "name" (interned)

PyObject *create_dynamic_guard(PyObject *self, void *a, void *b, void *c)
{
    PyObject *spec = first_arg(g_create_dynamic_flags, a, b);
    if (spec == nullptr || g_module_spec == nullptr || reinterpret_cast<PyObject *>(Py_TYPE(spec)) != g_module_spec)
        return native_refuse("loading a native module from a spec that is not importlib's ModuleSpec");
    // origin read as importlib reads it, from the instance's dict: a property of the answer's on ModuleSpec named one
    // file to the wall and another to the loader (redteam/wall2 h_r15_spec_origin_two_faced_property)
    auto *st = reinterpret_cast<PyTypeObject *>(g_module_spec);
    if (st->tp_getattro != PyObject_GenericGetAttr || _PyType_Lookup(st, g_origin_name) != nullptr ||
        _PyType_Lookup(st, g_name_name) != nullptr)
        return native_refuse("loading a native module with importlib's ModuleSpec changed");
    PyObject *dict = PyObject_GenericGetDict(spec, nullptr);
    PyObject *origin = dict != nullptr && PyDict_Check(dict) ? PyDict_GetItemWithError(dict, g_origin_name) : nullptr;
    const char *u = origin != nullptr && PyUnicode_CheckExact(origin) ? PyUnicode_AsUTF8(origin) : nullptr;
    const std::string o = u != nullptr ? u : "";
    Py_XDECREF(dict);
    PyErr_Clear();
    char real[PATH_MAX];
    const bool resolved = !o.empty() && realpath(o.c_str(), real) != nullptr;
    const std::string path = resolved ? real : (o.empty() ? "?" : o);
    // the path as given, which the loader opens, and as resolved: a file under a folder the candidate cannot write
    bool allowed = resolved && under_any(o, g_code_roots) && under_any(path, g_code_roots);
    if (!allowed && resolved) {
        const std::vector<std::string> *roots = nullptr;
        bool past_driver = false;
        for_each_frame(64, [&](PyFrameObject *, PyCodeObject *code, const char *file, int) {
            const std::string fn = file != nullptr ? file : "";
            const bool trusted = g_trusted_code.count(reinterpret_cast<PyObject *>(code)) > 0;
            const bool driver = fn.find("/triton/backends/") != std::string::npos && ends_with(fn, "/driver.py");
            if (past_driver) { // triton's own code must have called its driver: the answer calling CudaUtils()
                if (!trusted)  // after changing what it builds is not (h_r15_build_impl_knob_driver_loads)
                    roots = nullptr;
                return trusted && driver;
            }
            if (trusted && (fn.rfind("<frozen importlib", 0) == 0 || fn.find("/importlib/") != std::string::npos ||
                            ends_with(fn, "triton/runtime/build.py")))
                return true; // the loader's own frames and triton's build helpers: look further out
            if (trusted && driver) {
                roots = &g_driver_roots;
                past_driver = true;
                return true;
            }
            if (trusted && ends_with(fn, "sieve_worker/extensions/extclient.py"))
                roots = &g_client_roots;
            return false;
        });
        allowed = roots != nullptr && under_any(o, *roots) && under_any(path, *roots);
        // what the driver builds and loads is triton's state (its knobs, its modules' globals) as it was when the
        // wall started: a build.impl of the answer's returned its own shared object
        std::string what;
        if (allowed && roots == &g_driver_roots && !snapshot_holds(&what))
            return native_refuse("loading a native module by triton's driver with its state changed: " + what);
        if (allowed && roots == &g_driver_roots && build_env() != g_build_env)
            return native_refuse("loading a native module by triton's driver with the build's environment changed");
    }
    if (!allowed)
        return native_refuse("loading a native module built after the wall (" + path +
                             ") but by triton's driver from its cache or by the builder's client from the built "
                             "extensions' folder");
    return g_create_dynamic(self, a, b, c);
}

// _posixsubprocess.fork_exec starts a process with no audit event of Python's: subprocess's _execute_child raises
// "subprocess.Popen" (spawn_audit) and then calls it, and an answer that called it itself ran gcc into the Triton cache
// past every rule of spawn_audit. It runs only for its trusted caller in subprocess.py.
AnyCall g_fork_exec = nullptr;
int g_fork_exec_flags = 0;

PyObject *fork_exec_guard(PyObject *self, void *a, void *b, void *c)
{
    PyFrameObject *f = PyEval_GetFrame(); // borrowed: the innermost Python frame, the caller of the C function
    PyCodeObject *code = f != nullptr ? PyFrame_GetCode(f) : nullptr;
    const char *name = code != nullptr ? PyUnicode_AsUTF8(code->co_name) : nullptr;
    const char *file = code != nullptr ? PyUnicode_AsUTF8(code->co_filename) : nullptr;
    PyErr_Clear();
    const bool ok = code != nullptr && g_trusted_code.count(reinterpret_cast<PyObject *>(code)) > 0 &&
                    name != nullptr && std::strcmp(name, "_execute_child") == 0 && file != nullptr &&
                    ends_with(file, "/subprocess.py");
    Py_XDECREF(code);
    if (!ok)
        return native_refuse("starting a process but through subprocess (_posixsubprocess.fork_exec)");
    if (g_driver_roots.empty())
        return g_fork_exec(self, a, b, c);
    // what runs, as fork_exec reads it (round 17: Popen's defaults swapped gave the child a preexec_fn that set
    // LD_PRELOAD or exec'd gcc with a plugin, or an env mapping that answered the audit event and fork_exec apart):
    // (args, executable_list, close_fds, pass_fds, cwd, env_list, ..., preexec_fn at 21)
    auto refuse_start = [](const std::string &why) {
        return native_refuse("starting a process " + why + " (_posixsubprocess.fork_exec)");
    };
    PyObject *preexec = nth_arg(g_fork_exec_flags, a, b, 21);
    if (preexec == nullptr || preexec != Py_None)
        return refuse_start("with a function to run in the child");
    std::vector<std::string> words;
    auto plain = [&](PyObject *o, std::string &into) { // str or bytes exactly: nothing of the answer's runs to read it
        if (PyBytes_CheckExact(o))
            into.assign(PyBytes_AS_STRING(o), static_cast<size_t>(PyBytes_GET_SIZE(o)));
        else if (PyUnicode_CheckExact(o) && PyUnicode_AsUTF8(o) != nullptr)
            into = PyUnicode_AsUTF8(o);
        else
            return false;
        return true;
    };
    for (Py_ssize_t k : {0, 1}) {
        PyObject *seq = nth_arg(g_fork_exec_flags, a, b, k);
        if (seq == nullptr || !(PyList_CheckExact(seq) || PyTuple_CheckExact(seq)))
            return refuse_start("with arguments the wall cannot read");
        for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(seq); ++j) {
            std::string w;
            if (!plain(PySequence_Fast_GET_ITEM(seq, j), w))
                return refuse_start("with arguments the wall cannot read");
            words.push_back(w);
        }
    }
    PyObject *cwd_arg = nth_arg(g_fork_exec_flags, a, b, 4), *env_arg = nth_arg(g_fork_exec_flags, a, b, 5);
    std::string cwd = working_folder(), given;
    if (cwd_arg != nullptr && cwd_arg != Py_None) {
        if (!plain(cwd_arg, given) || given.empty())
            return refuse_start("with a working folder the wall cannot read");
        cwd = resolve(given[0] == '/' ? given : cwd + "/" + given);
    }
    std::map<std::string, std::string> env;
    if (env_arg == nullptr || env_arg == Py_None) {
        env = build_env();
    } else if (PyList_CheckExact(env_arg) || PyTuple_CheckExact(env_arg)) {
        for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(env_arg); ++j) {
            std::string kv;
            if (!plain(PySequence_Fast_GET_ITEM(env_arg, j), kv))
                return refuse_start("with an environment the wall cannot read");
            const size_t eq = kv.find('=');
            if (eq != std::string::npos && build_variable(kv.substr(0, eq)))
                env[kv.substr(0, eq)] = kv.substr(eq + 1);
        }
    } else {
        return refuse_start("with an environment the wall cannot read");
    }
    if (const std::string why = process_fault(words, cwd, env); !why.empty())
        return refuse_start(why);
    return g_fork_exec(self, a, b, c);
}

// Points a builtin function's C entry at a guard, keeping the real one and its calling convention: 0 done (or done
// before), 1 not found.
int redirect_meth(const char *module, const char *name, AnyCall guard, AnyCall &real, int &flags)
{
    PyObject *m = PyImport_ImportModule(module);
    PyObject *f = m != nullptr ? PyObject_GetAttrString(m, name) : nullptr;
    PyMethodDef *def = f != nullptr ? def_of(f) : nullptr;
    const auto entry = reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(guard));
    if (def != nullptr && def->ml_meth != entry) {
        flags = def->ml_flags;
        real = reinterpret_cast<AnyCall>(reinterpret_cast<void (*)()>(def->ml_meth));
        def->ml_meth = entry;
    }
    Py_XDECREF(f);
    Py_XDECREF(m);
    PyErr_Clear();
    return def == nullptr;
}

// shut_raw(code_roots, driver_roots, client_roots): the rest of raw memory, once ctypes is shut (Wall.start). The
// candidate becomes not dumpable, so its /proc/<pid>/mem (and every thread's) is root's, mode 0600: the candidate, with
// its own uid and no capability, opens it neither to read (the call's inputs, the wall's key) nor to write (the
// wall's statics), where /proc is writable for CUDA's sake (landlock variant proc_writable) too; seccomp lets prctl
// set dumpable only to 0. The native modules loaded after the wall come from code_roots, or from driver_roots by
// triton's driver, or from client_roots by the builder's client (create_dynamic_guard).
void add_roots(PyObject *seq, std::vector<std::string> &into)
{
    for (Py_ssize_t i = 0; i < PySequence_Size(seq); ++i) {
        PyObject *d = PySequence_GetItem(seq, i);
        const char *r = d != nullptr && PyUnicode_Check(d) ? PyUnicode_AsUTF8(d) : nullptr;
        if (r != nullptr && r[0] == '/' && r[std::strlen(r) - 1] == '/') // folders, each ending in a separator
            into.emplace_back(r);
        Py_XDECREF(d);
    }
    PyErr_Clear();
}

PyObject *w_shut_raw(PyObject *, PyObject *args)
{
    PyObject *roots, *driver_roots, *client_roots;
    if (!PyArg_ParseTuple(args, "OOO", &roots, &driver_roots, &client_roots))
        return nullptr;
    static bool shut = false; // once, by Wall.start: called again (the answer's import holds the module) it would add
    if (shut || g_phase.load() != kFree || g_serial > 0 || !g_ready) // roots of its own
        return refuse(nullptr, nullptr, nullptr);
    shut = true;
    g_build_env = build_env();
    keep_numpy_types();
    add_roots(roots, g_code_roots);
    add_roots(driver_roots, g_driver_roots);
    add_roots(client_roots, g_client_roots);
    int failed = 0, gated = 0;
    // (submodule, functions): the interpreter's memory access (allowed inside an interpreted launch), and the nvidia
    // module's copies, allocations and cuBLAS, which read and write device memory or compute with no op (no triton
    // code but its testing helpers calls them: refused to everyone; redteam/wall2 h_r12_triton_nvidia_memcpy)
    const std::pair<const char *, std::vector<const char *>> gates[] = {
        {"interpreter", {"load", "store", "atomic_cas", "atomic_rmw"}},
        {"nvidia", {"copy_device_to_host", "copy_host_to_device", "device_malloc", "device_free"}}};
    if (PyObject *lib = PyImport_ImportModule("triton._C.libtriton")) {
        for (const auto &[sub, names] : gates) {
            PyObject *m = PyObject_GetAttrString(lib, sub);
            PyErr_Clear();
            for (const char *name : names) {
                PyObject *f = m != nullptr ? PyObject_GetAttrString(m, name) : nullptr;
                PyErr_Clear();
                if (f == nullptr)
                    continue;
                const int r = gate_vectorcall(f, std::string("triton's ") + sub + ": " + name,
                                              std::strcmp(sub, "interpreter") == 0);
                failed += r < 0;
                gated += r > 0;
                Py_DECREF(f);
            }
            // every function of nvidia.cublas's classes (CublasLt: matmul, gemm, ...)
            PyObject *blas = m != nullptr ? PyObject_GetAttrString(m, "cublas") : nullptr;
            PyErr_Clear();
            PyObject *keys = blas != nullptr ? PyObject_Dir(blas) : nullptr;
            for (Py_ssize_t i = 0; keys != nullptr && i < PyList_GET_SIZE(keys); ++i) {
                PyObject *cls = PyObject_GetAttr(blas, PyList_GET_ITEM(keys, i));
                if (cls != nullptr && PyType_Check(cls)) {
                    PyObject *dict = reinterpret_cast<PyTypeObject *>(cls)->tp_dict;
                    PyObject *k, *v;
                    Py_ssize_t pos = 0;
                    while (dict != nullptr && PyDict_Next(dict, &pos, &k, &v)) {
                        const char *kn = PyUnicode_Check(k) ? PyUnicode_AsUTF8(k) : nullptr;
                        if (kn != nullptr && kn[0] != '_' && PyCallable_Check(v) &&
                            PyType_HasFeature(Py_TYPE(v), Py_TPFLAGS_HAVE_VECTORCALL))
                            gated += gate_vectorcall(v, std::string("triton's cuBLAS: ") + kn, false) > 0;
                    }
                }
                Py_XDECREF(cls);
                PyErr_Clear();
            }
            Py_XDECREF(keys);
            Py_XDECREF(blas);
            Py_XDECREF(m);
        }
        Py_DECREF(lib);
    }
    PyErr_Clear();
    if (PyObject *C = PyImport_ImportModule("torch._C")) {
        PyObject *a = PyObject_GetAttrString(C, "_jit_get_operation");
        PyObject *b = PyObject_GetAttrString(C, "_get_operation_overload");
        failed += a == nullptr || guard_op_lookup(a, 0, op_lookup<0>) < 0;
        failed += b != nullptr && guard_op_lookup(b, 1, op_lookup<1>) < 0;
        Py_XDECREF(a);
        Py_XDECREF(b);
        Py_DECREF(C);
    }
    PyErr_Clear();
    if (PyObject *bootstrap = PyImport_ImportModule("_frozen_importlib")) {
        g_module_spec = PyObject_GetAttrString(bootstrap, "ModuleSpec"); // kept
        Py_DECREF(bootstrap);
    }
    failed += g_module_spec == nullptr || !PyType_Check(g_module_spec);
    g_origin_name = PyUnicode_InternFromString("origin");
    g_name_name = PyUnicode_InternFromString("name");
    failed += g_origin_name == nullptr || g_name_name == nullptr;
    for (const auto &[m, names] : std::vector<std::pair<const char *, std::vector<const char *>>>{
             {"pathlib", {"PurePosixPath", "PosixPath"}}, {"os", {"DirEntry"}}}) {
        PyObject *mod = PyImport_ImportModule(m);
        for (const char *name : names)
            if (PyObject *t = mod != nullptr ? PyObject_GetAttrString(mod, name) : nullptr;
                t != nullptr && PyType_Check(t))
                g_path_types.push_back(t); // kept
        Py_XDECREF(mod);
    }
    PyErr_Clear();
    failed += redirect_meth("_imp", "create_dynamic", create_dynamic_guard, g_create_dynamic, g_create_dynamic_flags);
    failed += redirect_meth("_posixsubprocess", "fork_exec", fork_exec_guard, g_fork_exec, g_fork_exec_flags);
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
