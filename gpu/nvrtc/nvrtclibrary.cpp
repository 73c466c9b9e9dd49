#include "gpu/nvrtc/nvrtclibrary.h"

#include "gpu/cuda/dlbind.h"

#include <algorithm>
#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <mutex>

#ifdef SIEVE_HAVE_CUDA_HEADERS
#include <nvrtc.h>
#include <type_traits>
// Our hand-written prototypes must match the toolkit's, or a call through them would be undefined.
static_assert(sizeof(nvrtcResult) == sizeof(int), "nvrtcResult is an int-sized enum");
static_assert(std::is_same_v<sieve::gpu::NvrtcLibrary::Program, nvrtcProgram>);
#endif

namespace fs = std::filesystem;

namespace sieve::gpu {

namespace {

std::vector<std::string> cudaHomes()
{
    std::vector<std::string> homes;
    for (const char *var : {"SIEVE_CUDA_HOME", "CUDA_HOME", "CUDA_PATH"})
        if (const char *v = std::getenv(var); v && *v)
            homes.emplace_back(v);
#ifdef SIEVE_CUDA_TOOLKIT_ROOT
    homes.emplace_back(SIEVE_CUDA_TOOLKIT_ROOT);
#endif
    homes.emplace_back("/usr/local/cuda");
    return homes;
}

} // namespace

std::string cudaIncludeDir()
{
    for (const auto &home : cudaHomes()) {
        std::error_code ec;
        if (fs::exists(fs::path(home) / "include" / "cuda_fp16.h", ec))
            return (fs::path(home) / "include").string();
    }
    return {};
}

bool NvrtcLibrary::supports(int sm) const
{
    return std::find(m_archs.begin(), m_archs.end(), sm) != m_archs.end();
}

std::string NvrtcLibrary::errorString(Result r) const
{
    if (m_getErrorString)
        if (const char *s = m_getErrorString(r))
            return s;
    return "NVRTC error " + std::to_string(r);
}

bool NvrtcLibrary::load(const std::string &path, std::string &why)
{
    // RTLD_LOCAL: nothing else in the process should resolve symbols against NVRTC's private LLVM.
    void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *e = dlerror();
        why += path + ": " + (e ? e : "not loadable") + "; ";
        return false;
    }
    Result (*versionFn)(int *, int *) = nullptr;
    Result (*numArchs)(int *) = nullptr;
    Result (*archsFn)(int *) = nullptr;
    bool ok =
        dlbind(handle, "nvrtcVersion", versionFn, why) && dlbind(handle, "nvrtcCreateProgram", createProgram, why) &&
        dlbind(handle, "nvrtcDestroyProgram", destroyProgram, why) &&
        dlbind(handle, "nvrtcCompileProgram", compileProgram, why) &&
        dlbind(handle, "nvrtcGetPTXSize", getPTXSize, why) && dlbind(handle, "nvrtcGetPTX", getPTX, why) &&
        dlbind(handle, "nvrtcGetCUBINSize", getCUBINSize, why) && dlbind(handle, "nvrtcGetCUBIN", getCUBIN, why) &&
        dlbind(handle, "nvrtcGetProgramLogSize", getProgramLogSize, why) &&
        dlbind(handle, "nvrtcGetProgramLog", getProgramLog, why) &&
        dlbind(handle, "nvrtcAddNameExpression", addNameExpression, why) &&
        dlbind(handle, "nvrtcGetErrorString", m_getErrorString, why);
    if (!ok) {
        dlclose(handle);
        return false;
    }
    // Optional (NVRTC >= 11.2); without them we assume the classic set.
    numArchs = reinterpret_cast<decltype(numArchs)>(dlsym(handle, "nvrtcGetNumSupportedArchs"));
    archsFn = reinterpret_cast<decltype(archsFn)>(dlsym(handle, "nvrtcGetSupportedArchs"));
    versionFn(&m_major, &m_minor);
    int n = 0;
    if (numArchs && archsFn && numArchs(&n) == 0 && n > 0) {
        m_archs.resize(static_cast<std::size_t>(n));
        archsFn(m_archs.data());
    } else {
        m_archs = {70, 75, 80, 86, 89, 90};
    }
    // The handle is kept for the life of the process on purpose: NVRTC is not safe to unload.
    Dl_info info{};
    m_path = path;
    if (dladdr(reinterpret_cast<void *>(createProgram), &info) && info.dli_fname)
        m_path = info.dli_fname;
    std::error_code ec;
    const fs::path resolved = fs::canonical(m_path, ec);
    const auto size = ec ? 0 : fs::file_size(resolved, ec);
    m_buildId = version() + "/" + (ec ? m_path : resolved.filename().string()) + "/" + std::to_string(ec ? 0 : size);
    return true;
}

const NvrtcLibrary *NvrtcLibrary::get(std::string *why)
{
    static std::once_flag once;
    static NvrtcLibrary *library = nullptr;
    static std::string failure;
    std::call_once(once, [] {
        std::vector<std::string> candidates;
        if (const char *v = std::getenv("SIEVE_NVRTC"); v && *v) {
            candidates.emplace_back(v); // explicit choice: no fallback, so a test can force "absent"
        } else {
            candidates = {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"};
            for (const auto &home : cudaHomes())
                for (const char *lib : {"lib64/libnvrtc.so", "lib/libnvrtc.so"})
                    candidates.push_back((fs::path(home) / lib).string());
        }
        auto *lib = new NvrtcLibrary;
        for (const auto &c : candidates)
            if (lib->load(c, failure)) {
                library = lib;
                return;
            }
        delete lib;
        failure = "NVRTC not found (" + failure + "set SIEVE_NVRTC to libnvrtc.so's path)";
    });
    if (!library && why)
        *why = failure;
    return library;
}

} // namespace sieve::gpu
