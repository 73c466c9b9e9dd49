// The runtime wall's parts (sieve_wall.cpp: the module; observer.cpp: the op observer, its reports and the phases;
// trusted.cpp: the harness's own code and calls; guards.cpp: the guarded entry points and the answer's extension
// functions; ffi.cpp: ctypes shut, raw addresses; seed.cpp: the checks' seeds, sealed; callees.cpp: what an answer's
// kernel calls): what more than one of them
// uses. One shared object, built from all of them by wall.py; its state is these statics, which the answer's Python
// cannot reach.
#pragma once

#include <ATen/PythonTorchFunctionTLS.h>
#include <ATen/core/dispatch/Dispatcher.h>
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
#include <cctype>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace sieve_wall {

enum Phase { kFree = 0, kHarness = 1, kForward = 2 };

// Forwards the raw argument registers, so one trampoline serves every calling convention (METH_VARARGS,
// METH_KEYWORDS, METH_FASTCALL with or without keywords): x86-64 and aarch64 pass the four in registers.
using AnyCall = PyObject *(*)(PyObject *, void *, void *, void *);

// neuter(f, mode, name): how an entry point of torch's is refused (wall.py entry_points)
enum NeuterMode {
    kNeuterAlways = 0,
    kNeuterForward = 1,
    kNeuterAnswer = 2,
    kNeuterNative = 3,
    kNeuterHarness = 4,
    kNeuterMapping = 5, // the data path's torch.frombuffer: over a registered mapping only (mapping_call_refused)
    kNeuterRead = 6     // a tensor's values to Python with no op (tolist, apply_): the answer's constructor alone
};

using Range = std::pair<unsigned long, unsigned long>;

// the wall's state (observer.cpp) that more than one part reads
extern std::mutex g_mu;
extern std::atomic<int> g_phase;
extern std::atomic<bool> g_ablate;
extern bool g_ready;
extern std::string g_answer;
extern std::vector<std::string> g_ext_dirs;
extern std::thread::id g_main;
extern bool g_interpreted;
extern unsigned long g_serial, g_bypass;
extern PyObject *g_poison;
extern std::string g_native;
extern std::string g_native_harness;
extern PyObject *g_run_cls[2];
extern PyObject *g_run_orig[2];
extern PyObject *g_run_code[2];
extern PyObject *g_fill, *g_fill_code;
extern PyObject *g_ranges, *g_ranges_code;
extern unsigned long g_launches, g_launch_ns, g_forward_ns;
extern std::set<std::string> g_names;
extern std::vector<Range> g_launch_ranges;
extern std::vector<Range> g_protect;
extern bool g_armed;
extern bool g_next_probe, g_probe, g_last_probe, g_probe_told;
extern PyObject *g_launch_error;
extern double g_next_poison, g_poison_value;
extern bool g_ablate_ext;
extern std::atomic<int> g_in_launch;
extern PyObject *g_cur_ranges;
extern std::vector<Range> g_cur_mine; // the same ranges, a copy no Python holds (ffi.cpp outside_launch)
// trusted.cpp
extern std::unordered_set<PyObject *> g_caller_code;
extern std::unordered_set<PyObject *> g_trusted_code;
extern std::unordered_set<PyObject *> g_data_path_code;
extern std::atomic<bool> g_write_open;
extern std::atomic<bool> g_inputs_live;
std::string scheduled_hooks();
PyObject *w_inputs(PyObject *, PyObject *args);

// observer.cpp
void tamper(const std::string &why);
std::string python_where();
std::string python_trail(int frames);
void record(const char *op, int phase, bool other, const std::string &where);
bool snapshot_holds(std::string *what);
PyObject *refuse(PyObject *, PyObject *, PyObject *);
PyObject *w_init(PyObject *, PyObject *args);
PyObject *w_snapshot(PyObject *, PyObject *args);
PyObject *w_phase(PyObject *, PyObject *args);
PyObject *w_seal(PyObject *, PyObject *);
// guards.cpp
PyObject *ranges_list(const std::vector<Range> &rs);
PyMethodDef *def_of(PyObject *f);
PyObject *w_guard_data(PyObject *, PyObject *args);
PyObject *w_neuter(PyObject *, PyObject *args);
PyObject *w_wrap_extension(PyObject *, PyObject *args);
// trusted.cpp
std::string borrowed_frame();
bool stack_trusted(const std::unordered_set<PyObject *> *innermost);
bool harness_own_call(const std::unordered_set<PyObject *> &innermost = g_caller_code);
std::string mapping_call_refused(int flags, PyObject *args, PyObject *kw);
PyObject *guarded_refuse(const std::string &what);
PyObject *w_trust(PyObject *, PyObject *args);
PyObject *w_mappings(PyObject *, PyObject *args);
PyObject *w_map_shared(PyObject *, PyObject *args);
PyObject *w_write(PyObject *, PyObject *args);
// seed.cpp
std::string key_report();
void drop_seed();
PyObject *w_seed(PyObject *, PyObject *args);
// ffi.cpp
PyObject *native_refuse(const std::string &what);
PyObject *native_refuse(const std::string &what, bool answer);
newfunc real_new(const std::vector<std::pair<PyTypeObject *, newfunc>> &table, PyTypeObject *t);
int refuse_native(PyObject *f, const std::string &what);
void subtypes(PyTypeObject *t, std::vector<PyTypeObject *> &out);
PyObject *w_shut_ctypes(PyObject *, PyObject *args);
PyObject *w_shut_raw(PyObject *, PyObject *args);
// sieve_wall.cpp
bool shadows(PyObject *obj, PyObject *d, std::string *what);
bool interpreted_runs(PyObject *kself, PyObject *d, PyObject *fn, bool drop);
PyObject *answer_kernel(int kind, PyObject *kself);
PyObject *src_of(PyObject *k);
bool in_answer(PyObject *fn);
void keep_class(PyObject *cls);
// callees.cpp
void callees_setup(const std::string &answer_raw);
void keep_only_functions(PyObject *cache);
void drop_entry(PyObject *cache, PyObject *fn);
void drop_own_rewritten(PyObject *cache);
void release_dropped();
void kernel_watch_code(PyObject *fn);
void kernel_watch_start();
bool kernel_code(PyCodeObject *c);
extern int g_in_grid; // the answer's grid function runs (sieve_wall.cpp grid_call): its Python may, in the launch
void kernel_watch_end();
bool kernel_watch_holds();
int kernel_calls(PyObject *, PyFrameObject *frame, int what, PyObject *arg);
bool device_calls_hold(std::string *what);
std::string foreign_kernel(PyObject *k);
bool interpreted_caller_ok(std::string *file);
std::string launch_refused(int kind, PyObject *kself, PyObject *fn, PyObject *args, PyObject *kwargs);
PyObject *w_callee(PyObject *, PyObject *args);
// guards.cpp
int route_op_dk(PyObject *f);
extern int g_op_dk_slot;
PyObject *w_route_op_dk(PyObject *, PyObject *args);

// Visits this thread's Python frames, innermost first, at most max_depth of them, until visit(frame, code,
// file, depth) returns false; file is nullptr where the code's file name is no UTF-8 string. With the GIL.
// Returns true when the walk stopped at max_depth with frames left: what lies past them was not seen.
template <class Visit> bool for_each_frame(int max_depth, Visit visit)
{
    PyFrameObject *f = PyThreadState_GetFrame(PyThreadState_Get());
    bool stopped = false;
    for (int depth = 0; f != nullptr && depth < max_depth; ++depth) {
        PyCodeObject *code = PyFrame_GetCode(f);
        const char *file = PyUnicode_AsUTF8(code->co_filename);
        PyErr_Clear();
        const bool more = visit(f, code, file, depth);
        Py_DECREF(code);
        if (!more) {
            stopped = true;
            break;
        }
        PyFrameObject *back = PyFrame_GetBack(f);
        Py_DECREF(f);
        f = back;
    }
    const bool cut = !stopped && f != nullptr;
    Py_XDECREF(f);
    return cut;
}

// How deep the walks that decide whose an op is look: the whole stack of any program (CPython's own recursion
// guard stops far sooner); a stack deeper than this counts as the answer's, never as trusted code's.
constexpr int kWholeStack = 1 << 20;

} // namespace sieve_wall
