#pragma once
// NVRTC loaded at run time (dlopen), never linked: sieve-cli has to start, import, dedup and export on
// machines that have no CUDA toolkit at all, and the NVRTC that is found at run time may be newer than
// the headers Sieve was built against. The C ABI of NVRTC has been stable since CUDA 7, so Sieve
// declares the few entry points it needs itself (checked against nvrtc.h when the toolkit is present
// at build time, see nvrtclibrary.cpp).
#include <cstddef>
#include <string>
#include <vector>

struct _nvrtcProgram; // NVRTC's opaque program type, as nvrtc.h declares it

namespace sieve::gpu {

class NvrtcLibrary
{
public:
    using Program = ::_nvrtcProgram *;
    using Result = int; // nvrtcResult; 0 = NVRTC_SUCCESS

    // The process-wide library, loaded on first use. nullptr when none could be loaded; then `why`
    // (when given) receives the paths tried and dlerror()'s message.
    static const NvrtcLibrary *get(std::string *why = nullptr);

    const std::string &path() const { return m_path; }
    int major() const { return m_major; }
    int minor() const { return m_minor; }
    std::string version() const { return std::to_string(m_major) + "." + std::to_string(m_minor); }
    // Identifies the exact build (version + the resolved file's size): NVRTC's own version number is
    // only major.minor, but two patch releases can emit different code, so the cache key needs more.
    const std::string &buildId() const { return m_buildId; }
    // Real architectures NVRTC can target, e.g. {75, 80, 86, ..., 120}.
    const std::vector<int> &supportedArchs() const { return m_archs; }
    bool supports(int sm) const;
    std::string errorString(Result r) const;

    Result (*createProgram)(Program *, const char *src, const char *name, int numHeaders, const char *const *headers,
                            const char *const *includeNames) = nullptr;
    Result (*destroyProgram)(Program *) = nullptr;
    Result (*compileProgram)(Program, int numOptions, const char *const *options) = nullptr;
    Result (*getPTXSize)(Program, std::size_t *) = nullptr;
    Result (*getPTX)(Program, char *) = nullptr;
    Result (*getCUBINSize)(Program, std::size_t *) = nullptr;
    Result (*getCUBIN)(Program, char *) = nullptr;
    Result (*getProgramLogSize)(Program, std::size_t *) = nullptr;
    Result (*getProgramLog)(Program, char *) = nullptr;
    Result (*addNameExpression)(Program, const char *) = nullptr; // forces a template's instantiation

private:
    NvrtcLibrary() = default;
    bool load(const std::string &path, std::string &why);

    std::string m_path;
    std::string m_buildId;
    int m_major = 0;
    int m_minor = 0;
    std::vector<int> m_archs;
    const char *(*m_getErrorString)(Result) = nullptr;
};

// Where the CUDA headers NVRTC needs (cuda_fp16.h, cooperative_groups.h, ...) live: SIEVE_CUDA_HOME,
// CUDA_HOME, CUDA_PATH, the toolkit found at build time, /usr/local/cuda. Empty when none has include/.
std::string cudaIncludeDir();

} // namespace sieve::gpu
