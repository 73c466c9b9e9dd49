#pragma once
// Binds a symbol of a library loaded at run time (the CUDA driver, NVRTC) to a typed function pointer.
#include <dlfcn.h>
#include <string>

namespace sieve::gpu {

// False, with the symbol's name appended to `why`, when the library lacks it.
template <typename F> bool dlbind(void *handle, const char *name, F &fn, std::string &why)
{
    fn = reinterpret_cast<F>(dlsym(handle, name));
    if (!fn)
        why += std::string("missing symbol ") + name + "; ";
    return fn != nullptr;
}

} // namespace sieve::gpu
