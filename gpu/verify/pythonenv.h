#pragma once
// Where the verifier's Python lives. The set-up script creates a virtual environment outside the source
// tree; Sieve finds its interpreter through SIEVE_PYTHON, then SIEVE_VENV, then the default location.
#include <string>

namespace sieve::gpu {

struct PythonEnv
{
    std::string python;    // interpreter path
    std::string workerDir; // folder that holds the sieve_worker package
};

// The default venv: $XDG_CACHE_HOME/sieve/venv or ~/.cache/sieve/venv.
std::string defaultVenvDir();
// Resolves the interpreter (explicit > SIEVE_PYTHON > SIEVE_VENV > default venv) and the worker folder
// (SIEVE_WORKER_DIR > next to the executable's share/ > the source tree). Throws std::runtime_error with a
// message that says how to fix it when the interpreter is missing.
PythonEnv findPythonEnv(const std::string &explicitPython = {});

} // namespace sieve::gpu
