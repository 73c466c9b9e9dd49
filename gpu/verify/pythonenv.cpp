#include "gpu/verify/pythonenv.h"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <unistd.h>

namespace fs = std::filesystem;

namespace sieve::gpu {

namespace {
std::string env(const char *name)
{
    const char *v = std::getenv(name);
    return v ? std::string(v) : std::string();
}

fs::path executableDir()
{
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path() : exe.parent_path();
}
} // namespace

std::string defaultVenvDir()
{
    std::string cache = env("XDG_CACHE_HOME");
    if (cache.empty())
        cache = env("HOME").empty() ? std::string("/tmp") : env("HOME") + "/.cache";
    return cache + "/sieve/venv";
}

PythonEnv findPythonEnv(const std::string &explicitPython)
{
    PythonEnv e;
    if (!explicitPython.empty())
        e.python = explicitPython;
    else if (!env("SIEVE_PYTHON").empty())
        e.python = env("SIEVE_PYTHON");
    else if (!env("SIEVE_VENV").empty())
        e.python = env("SIEVE_VENV") + "/bin/python";
    else
        e.python = defaultVenvDir() + "/bin/python";
    if (access(e.python.c_str(), X_OK) != 0)
        throw std::runtime_error("no Python interpreter at '" + e.python +
                                 "': run ./setup.sh (it creates the verifier's virtual environment), or set "
                                 "SIEVE_PYTHON to an interpreter that has torch, triton and numpy");

    const std::string fromEnv = env("SIEVE_WORKER_DIR");
    const fs::path candidates[] = {
        fromEnv.empty() ? fs::path() : fs::path(fromEnv),
        executableDir() / "../share/sieve/worker",
        fs::path(SIEVE_SOURCE_DIR) / "gpu/worker",
    };
    for (const fs::path &c : candidates) {
        if (!c.empty() && fs::exists(c / "sieve_worker" / "__init__.py")) {
            e.workerDir = fs::weakly_canonical(c).string();
            break;
        }
    }
    if (e.workerDir.empty())
        throw std::runtime_error("the verifier's worker package (sieve_worker) was not found; set SIEVE_WORKER_DIR");
    return e;
}

} // namespace sieve::gpu
