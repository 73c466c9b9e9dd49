// The checks' seeds, sealed: the worker sends each secret seed masked with a key only this part and the worker hold
// (key_report at init, before any of the answer loads), and the wall seeds torch's generators with it itself
// (w_seed). No Python object of the candidate's ever holds a check's seed, so no code of the answer's, whenever it
// runs (its constructor walking the harness's frames, a profile function, a signal handler, a thread), can remake a
// check's inputs in numpy or in its constructor (redteam/wall2 h_seed_frame_locals, h_task_module_seed_leak,
// h_profile_func_seed_leak, h_signal_timer_seed_leak); the generators' state is read back by the harness alone
// (wall.py entry_points: torch.Generator's readers).
#include "wall.h"

#include <ATen/Context.h>
#include <sys/random.h>

#include <random>

namespace sieve_wall {

namespace {
uint64_t g_key = 0;
std::atomic<bool> g_seed_live{false}; // torch's generators hold a check's seed (w_seed) that no reseed replaced yet

uint64_t random_u64()
{
    uint64_t k = 0;
    if (getrandom(&k, sizeof k, 0) != static_cast<ssize_t>(sizeof k)) {
        std::random_device rd;
        k = (static_cast<uint64_t>(rd()) << 32) ^ rd();
    }
    return k;
}

// splitmix64's finaliser: the mask of a seed is mix(key ^ mix(nonce)), the worker's wall.seal_seed does the same
uint64_t mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
} // namespace

// The key, drawn once (at w_init) and told to the worker on the report pipe: {"t": "wall", "kind": "key", ...}, the
// first line the wall writes. The worker takes only one, before the child is ready (messages.on_wall).
std::string key_report()
{
    g_key = random_u64();
    return "{\"t\": \"wall\", \"kind\": \"key\", \"key\": " + std::to_string(g_key) + "}";
}

// seed(nonce, wire): torch's generators (the CPU's and every device's, as torch.manual_seed) seeded with the check's
// seed, wire ^ mix(key ^ mix(nonce)); the harness's own call only (taskref.seed_torch, in its phase, with no hook of
// the answer's in place): any other caller is refused and latched.
PyObject *w_seed(PyObject *, PyObject *args)
{
    unsigned long long nonce, wire;
    if (!PyArg_ParseTuple(args, "KK", &nonce, &wire))
        return nullptr;
    if (!g_ready || !harness_own_call(g_trusted_code)) {
        const std::string what = "a check's seed set outside the harness's own code";
        {
            std::lock_guard<std::mutex> lock(g_mu);
            tamper(what);
        }
        PyErr_Format(PyExc_PermissionError, "sieve runtime wall: refused: %s", what.c_str());
        return nullptr;
    }
    try {
        at::manual_seed(static_cast<uint64_t>(wire) ^ mix(g_key ^ mix(static_cast<uint64_t>(nonce))));
        g_seed_live.store(true);
    } catch (const std::exception &e) {
        PyErr_Format(PyExc_RuntimeError, "sieve runtime wall: seeding failed: %s", e.what());
        return nullptr;
    }
    Py_RETURN_NONE;
}

// At every transition out of the harness's phase (w_phase): a check's seed still in torch's generators is replaced by
// a random one, whatever the harness's Python did or was made to do (its reseed shadowed on the instance), so a
// check's random stream exists in the harness's phase alone, never in the answer's constructor or forward.
void drop_seed()
{
    if (!g_seed_live.exchange(false))
        return;
    try {
        at::manual_seed(random_u64() >> 1);
    } catch (const std::exception &e) {
        std::lock_guard<std::mutex> lock(g_mu);
        tamper(std::string("a check's seed could not be replaced: ") + e.what());
    }
}

} // namespace sieve_wall
