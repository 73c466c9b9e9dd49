#pragma once
// Where Sieve's Python lives. The set-up script creates a virtual environment outside the source tree;
// Sieve finds its interpreter through SIEVE_PYTHON, then SIEVE_VENV, then the default location. The
// verifier (gpu/verify/pythonenv.h) and the export's chat renderer (core/export/chatrender.h) use it.
#include <filesystem>
#include <string>

namespace sieve {

// The default venv: $XDG_CACHE_HOME/sieve/venv or ~/.cache/sieve/venv.
std::string defaultVenvDir();

// The interpreter: explicitPython, else SIEVE_PYTHON, else $SIEVE_VENV/bin/python, else the default venv's.
// Throws std::runtime_error when it is not executable; `needs` says what it must have ("torch, triton and
// numpy").
std::string pythonInterpreter(const std::string &explicitPython, const std::string &needs);

// A folder of Sieve's resources: $envVar, ../share/sieve/<name> beside the executable, or the source
// tree's resources/<name>. Throws std::runtime_error naming what was tried.
std::filesystem::path resourceDir(const std::string &name, const char *envVar);

} // namespace sieve
