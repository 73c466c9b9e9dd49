#include "core/util/python.h"

#include <cstdlib>
#include <stdexcept>
#include <unistd.h>
#include <vector>

namespace sieve {

namespace {
std::string env(const char *name)
{
    const char *v = std::getenv(name);
    return v ? std::string(v) : std::string();
}
} // namespace

std::string defaultVenvDir()
{
    std::string cache = env("XDG_CACHE_HOME");
    if (cache.empty())
        cache = env("HOME").empty() ? std::string("/tmp") : env("HOME") + "/.cache";
    return cache + "/sieve/venv";
}

std::string pythonInterpreter(const std::string &explicitPython, const std::string &needs)
{
    std::string python;
    if (!explicitPython.empty())
        python = explicitPython;
    else if (!env("SIEVE_PYTHON").empty())
        python = env("SIEVE_PYTHON");
    else if (!env("SIEVE_VENV").empty())
        python = env("SIEVE_VENV") + "/bin/python";
    else
        python = defaultVenvDir() + "/bin/python";
    if (access(python.c_str(), X_OK) != 0)
        throw std::runtime_error("no Python interpreter at '" + python +
                                 "': run ./setup.sh (it creates the verifier's virtual environment), or set "
                                 "SIEVE_PYTHON to an interpreter that has " +
                                 needs);
    return python;
}

std::filesystem::path resourceDir(const std::string &name, const char *envVar)
{
    namespace fs = std::filesystem;
    std::vector<fs::path> candidates;
    if (const char *v = std::getenv(envVar))
        candidates.emplace_back(v);
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec)
        candidates.push_back(exe.parent_path() / ".." / "share" / "sieve" / name);
#ifdef SIEVE_SOURCE_DIR
    candidates.push_back(fs::path(SIEVE_SOURCE_DIR) / "resources" / name);
#endif
    for (const fs::path &p : candidates)
        if (fs::is_directory(p, ec))
            return p;
    std::string tried;
    for (const fs::path &p : candidates)
        tried += (tried.empty() ? "" : ", ") + p.string();
    throw std::runtime_error("no " + name + " folder found (tried " + tried + "; set " + envVar + ")");
}

} // namespace sieve
