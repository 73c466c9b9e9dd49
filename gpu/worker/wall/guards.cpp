// The guarded entry points (neuter's slots, the constructors from data) and the answer's extension functions.
#include "wall.h"

namespace sieve_wall {

// One trampoline per neutered entry point (the slot holds its real function): a method descriptor's
// function gets the instance as self, so self cannot tell which entry point was called.
constexpr int kSlots = 384; // entry_points: 232 on torch 2.15, every _jit_pass_* among them
PyCFunction g_slot_orig[kSlots] = {};
const char *g_slot_name[kSlots] = {};
int g_slot_mode[kSlots] = {};  // NeuterMode: refused in the forward, also to the answer's code, or but to the harness
int g_slot_flags[kSlots] = {}; // the PyMethodDef's calling convention (kNeuterMapping reads its arguments)
int g_slots_used = 0;

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
        std::string where = python_where();
        {
            std::lock_guard<std::mutex> lock(g_mu);
            ++g_bypass;
            record(g_slot_name[N], kForward, std::this_thread::get_id() != g_main, where);
        }
        PyErr_SetString(PyExc_RuntimeError, "sieve runtime wall: not available in the forward");
        return nullptr;
    }
    // a tensor's values read into Python (tolist) or computed on by a Python function (apply_, map_, map2_), with
    // no op: in the harness's phase the call's inputs and outputs exist, and the answer's code that runs there (a
    // harness object's attribute it shadowed, a finalizer) read the input, computed in Python and copied the result
    // into the output with allowed ops before the write (redteam/wall2 h_harness_attr_tolist_compute); its
    // constructor (the free phase) holds no call's inputs
    if (g_slot_mode[N] == kNeuterRead && phase == kHarness && !harness_own_call())
        return guarded_refuse(std::string(g_slot_name[N]) + " outside the answer's constructor");
    // a kernel run around the dispatcher (redispatch_boxed, _op_dk, call_boxed) by the answer's code in the harness's
    // phase, where the call's inputs exist: the answer's __instancecheck__, reached through a harness function's
    // import, computed the softmax there (redteam/wall2 h_r14_sysmodules_torch_harness_redispatch)
    if (g_slot_mode[N] == kNeuterForward && phase == kHarness && !harness_own_call())
        return guarded_refuse(std::string(g_slot_name[N]) + " outside the harness's own code");
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

// An OpOverload's _op_dk (torch._C._get_operation_overload's second function) calls an operator's kernel for a
// dispatch key with Dispatcher::callBoxedForDispatchKey, where no RecordFunction runs: the answer's forward got
// aten::_softmax's CPU kernel unseen (redteam/wall2 h_r14_op_dk_softmax). Every _op_dk is a pybind11 function with
// a method definition of its own and the same dispatcher: all of them go through one slot, refused in the forward as
// redispatch_boxed is, those made before the wall (Wall.start routes the cached overloads) and after it (op_lookup).
int g_op_dk_slot = -1;

int route_op_dk(PyObject *f)
{
    PyMethodDef *def = def_of(f);
    if (def == nullptr)
        return -1;
    if (g_op_dk_slot < 0) {
        const int r = patch_slot(f, "OpOverload._op_dk (around the dispatcher)", kNeuterForward);
        if (r == 1)
            g_op_dk_slot = g_slots_used - 1;
        return r == 1 ? 1 : -1;
    }
    const auto trampoline = reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(kSlotFns[g_op_dk_slot]));
    if (def->ml_meth == trampoline)
        return 0;
    // a function of another binding's dispatcher (not seen on torch 2.15) gets a slot of its own
    if (def->ml_meth != g_slot_orig[g_op_dk_slot] || def->ml_flags != g_slot_flags[g_op_dk_slot])
        return patch_slot(f, "OpOverload._op_dk (around the dispatcher)", kNeuterForward) < 0 ? -1 : 1;
    def->ml_meth = trampoline;
    return 1;
}

PyObject *w_route_op_dk(PyObject *, PyObject *args)
{
    PyObject *f;
    if (!PyArg_ParseTuple(args, "O", &f))
        return nullptr;
    if (g_phase.load() != kFree || g_serial > 0)
        return refuse(nullptr, nullptr, nullptr);
    if (route_op_dk(f) < 0) {
        PyErr_SetString(PyExc_TypeError, "sieve runtime wall: not an _op_dk of pybind11's");
        return nullptr;
    }
    Py_RETURN_NONE;
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

} // namespace sieve_wall
