#include "gpu/verify/pythonenv.h"

#include "core/util/python.h"

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
    return sieve::defaultVenvDir();
}

PythonEnv findPythonEnv(const std::string &explicitPython)
{
    PythonEnv e;
    e.python = pythonInterpreter(explicitPython, "torch, triton and numpy");
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
