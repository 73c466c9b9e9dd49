#pragma once
// The CUDA driver API loaded at run time (dlopen libcuda.so.1), never linked: Sieve has to start, and
// run everything that needs no GPU, on a machine without an NVIDIA driver. Only the entry points Sieve
// uses are bound; their prototypes are checked against cuda.h when the toolkit is there at build time.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

// The driver's opaque handle types, declared as cuda.h declares them.
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
struct CUevent_st;

namespace sieve::gpu {

struct CudaDevice
{
    int index = 0;
    std::string name;
    int major = 0;
    int minor = 0;
    std::size_t totalMemory = 0;
    long l2Bytes = 0;
    int multiprocessors = 0;
    int clockKHz = 0;
    int sharedPerBlockOptin = 0;

    std::string arch() const { return "sm_" + std::to_string(major * 10 + minor); }
};

class CudaDriver
{
public:
    using Result = int; // CUresult; 0 = CUDA_SUCCESS
    using Device = int;
    using Context = ::CUctx_st *;
    using Module = ::CUmod_st *;
    using Function = ::CUfunc_st *;
    using Stream = ::CUstream_st *;
    using Event = ::CUevent_st *;
    using DevicePtr = unsigned long long;

    // The process-wide driver, loaded and cuInit()ed once. nullptr when there is none (no libcuda, or
    // cuInit failed); `why` then gets a one-line reason (the tried paths or the CUDA error).
    static const CudaDriver *get(std::string *why = nullptr);

    const std::string &path() const { return m_path; }
    // The process that ran cuInit: CUDA does not survive fork, so a child must not use this driver.
    int initialisedBy() const { return m_pid; }
    int version() const { return m_version; } // e.g. 13000
    std::string versionString() const;
    std::string errorString(Result r) const;
    // Enumerates the devices; throws std::runtime_error naming the failing call.
    std::vector<CudaDevice> devices() const;
    void check(Result r, const char *call) const; // throws std::runtime_error("call: message")

    Result (*deviceGetCount)(int *) = nullptr;
    Result (*deviceGet)(Device *, int) = nullptr;
    Result (*deviceGetName)(char *, int, Device) = nullptr;
    Result (*deviceGetAttribute)(int *, int, Device) = nullptr;
    Result (*deviceTotalMem)(std::size_t *, Device) = nullptr;
    Result (*primaryCtxRetain)(Context *, Device) = nullptr;
    Result (*primaryCtxRelease)(Device) = nullptr;
    Result (*ctxSetCurrent)(Context) = nullptr;
    Result (*ctxSynchronize)() = nullptr;
    Result (*moduleLoadData)(Module *, const void *) = nullptr;
    Result (*moduleUnload)(Module) = nullptr;
    Result (*moduleGetFunction)(Function *, Module, const char *) = nullptr;
    Result (*funcSetAttribute)(Function, int, int) = nullptr;
    Result (*launchKernel)(Function, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, Stream,
                           void **, void **) = nullptr;
    Result (*memAlloc)(DevicePtr *, std::size_t) = nullptr;
    Result (*memFree)(DevicePtr) = nullptr;
    Result (*memcpyHtoD)(DevicePtr, const void *, std::size_t) = nullptr;
    Result (*memcpyDtoH)(void *, DevicePtr, std::size_t) = nullptr;
    Result (*memsetD8)(DevicePtr, unsigned char, std::size_t) = nullptr;
    Result (*eventCreate)(Event *, unsigned) = nullptr;
    Result (*eventDestroy)(Event) = nullptr;
    Result (*eventRecord)(Event, Stream) = nullptr;
    Result (*eventSynchronize)(Event) = nullptr;
    Result (*eventElapsedTime)(float *, Event, Event) = nullptr;

    // Attribute numbers from cuda.h (stable across releases).
    static constexpr int kAttrClockRate = 13;
    static constexpr int kAttrMultiprocessorCount = 16;
    static constexpr int kAttrL2CacheSize = 38;
    static constexpr int kAttrComputeMajor = 75;
    static constexpr int kAttrComputeMinor = 76;
    static constexpr int kAttrSharedPerBlockOptin = 97;
    static constexpr int kFuncAttrMaxDynamicShared = 8;

private:
    CudaDriver() = default;
    bool load(const std::string &path, std::string &why);

    std::string m_path;
    int m_pid = 0;
    int m_version = 0;
    Result (*m_getErrorString)(Result, const char **) = nullptr;
};

} // namespace sieve::gpu
