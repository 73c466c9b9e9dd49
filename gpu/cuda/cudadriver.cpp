#include "gpu/cuda/cudadriver.h"

#include "gpu/cuda/dlbind.h"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>
#include <stdexcept>
#include <unistd.h>

#ifdef SIEVE_HAVE_CUDA_HEADERS
#include <cuda.h>
#include <type_traits>
static_assert(sizeof(CUresult) == sizeof(int) && sizeof(CUdevice) == sizeof(int));
static_assert(std::is_same_v<sieve::gpu::CudaDriver::DevicePtr, CUdeviceptr>);
static_assert(std::is_same_v<sieve::gpu::CudaDriver::Context, CUcontext>);
static_assert(std::is_same_v<sieve::gpu::CudaDriver::Module, CUmodule>);
static_assert(std::is_same_v<sieve::gpu::CudaDriver::Function, CUfunction>);
static_assert(std::is_same_v<sieve::gpu::CudaDriver::Stream, CUstream>);
static_assert(std::is_same_v<sieve::gpu::CudaDriver::Event, CUevent>);
static_assert(sieve::gpu::CudaDriver::kAttrL2CacheSize == CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
static_assert(sieve::gpu::CudaDriver::kAttrComputeMajor == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
static_assert(sieve::gpu::CudaDriver::kAttrComputeMinor == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
static_assert(sieve::gpu::CudaDriver::kAttrMultiprocessorCount == CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
static_assert(sieve::gpu::CudaDriver::kAttrClockRate == CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
static_assert(sieve::gpu::CudaDriver::kAttrSharedPerBlockOptin ==
              CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
static_assert(sieve::gpu::CudaDriver::kFuncAttrMaxDynamicShared == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
#endif

namespace sieve::gpu {

std::string CudaDriver::versionString() const
{
    return std::to_string(m_version / 1000) + "." + std::to_string((m_version % 1000) / 10);
}

std::string CudaDriver::errorString(Result r) const
{
    const char *s = nullptr;
    if (m_getErrorString && m_getErrorString(r, &s) == 0 && s)
        return s;
    return "CUDA error " + std::to_string(r);
}

void CudaDriver::check(Result r, const char *call) const
{
    if (r != 0)
        throw std::runtime_error(std::string(call) + ": " + errorString(r) + " (" + std::to_string(r) + ")");
}

bool CudaDriver::load(const std::string &path, std::string &why)
{
    void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *e = dlerror();
        why += e ? std::string(e) : path + ": not loadable";
        return false;
    }
    Result (*init)(unsigned) = nullptr;
    Result (*driverVersion)(int *) = nullptr;
    bool ok = dlbind(handle, "cuInit", init, why) && dlbind(handle, "cuDriverGetVersion", driverVersion, why) &&
              dlbind(handle, "cuGetErrorString", m_getErrorString, why) &&
              dlbind(handle, "cuDeviceGetCount", deviceGetCount, why) &&
              dlbind(handle, "cuDeviceGet", deviceGet, why) && dlbind(handle, "cuDeviceGetName", deviceGetName, why) &&
              dlbind(handle, "cuDeviceGetAttribute", deviceGetAttribute, why) &&
              dlbind(handle, "cuDeviceTotalMem_v2", deviceTotalMem, why) &&
              dlbind(handle, "cuDevicePrimaryCtxRetain", primaryCtxRetain, why) &&
              dlbind(handle, "cuDevicePrimaryCtxRelease_v2", primaryCtxRelease, why) &&
              dlbind(handle, "cuCtxSetCurrent", ctxSetCurrent, why) &&
              dlbind(handle, "cuCtxSynchronize", ctxSynchronize, why) &&
              dlbind(handle, "cuModuleLoadData", moduleLoadData, why) &&
              dlbind(handle, "cuModuleUnload", moduleUnload, why) &&
              dlbind(handle, "cuModuleGetFunction", moduleGetFunction, why) &&
              dlbind(handle, "cuFuncSetAttribute", funcSetAttribute, why) &&
              dlbind(handle, "cuLaunchKernel", launchKernel, why) && dlbind(handle, "cuMemAlloc_v2", memAlloc, why) &&
              dlbind(handle, "cuMemFree_v2", memFree, why) && dlbind(handle, "cuMemcpyHtoD_v2", memcpyHtoD, why) &&
              dlbind(handle, "cuMemcpyDtoH_v2", memcpyDtoH, why) && dlbind(handle, "cuMemsetD8_v2", memsetD8, why) &&
              dlbind(handle, "cuEventCreate", eventCreate, why) &&
              dlbind(handle, "cuEventDestroy_v2", eventDestroy, why) &&
              dlbind(handle, "cuEventRecord", eventRecord, why) &&
              dlbind(handle, "cuEventSynchronize", eventSynchronize, why);
    // cuEventElapsedTime_v2 appeared in CUDA 12.8; older drivers only have the first version.
    if (ok &&
        !(eventElapsedTime = reinterpret_cast<decltype(eventElapsedTime)>(dlsym(handle, "cuEventElapsedTime_v2"))))
        ok = dlbind(handle, "cuEventElapsedTime", eventElapsedTime, why);
    if (!ok) {
        dlclose(handle);
        return false;
    }
    m_path = path;
    m_pid = static_cast<int>(getpid());
    driverVersion(&m_version);
    if (const Result r = init(0); r != 0) {
        why += "cuInit: " + errorString(r) + " (driver " + versionString() + ")";
        return false; // the handle stays loaded: unloading a driver that started is not safe
    }
    return true;
}

const CudaDriver *CudaDriver::get(std::string *why)
{
    static std::once_flag once;
    static CudaDriver *driver = nullptr;
    static std::string failure;
    std::call_once(once, [] {
        std::vector<std::string> candidates{"libcuda.so.1", "libcuda.so"};
        if (const char *v = std::getenv("SIEVE_CUDA_DRIVER"); v && *v)
            candidates = {v}; // explicit choice: no fallback, so tests can force "no driver"
        auto *d = new CudaDriver;
        for (const auto &c : candidates) {
            std::string reason;
            if (d->load(c, reason)) {
                driver = d;
                return;
            }
            failure += (failure.empty() ? "" : "; ") + reason;
        }
        delete d;
    });
    if (!driver && why)
        *why = "no CUDA driver (" + failure + ")";
    return driver;
}

std::vector<CudaDevice> CudaDriver::devices() const
{
    int count = 0;
    check(deviceGetCount(&count), "cuDeviceGetCount");
    std::vector<CudaDevice> out;
    for (int i = 0; i < count; ++i) {
        Device dev = 0;
        check(deviceGet(&dev, i), "cuDeviceGet");
        CudaDevice d;
        d.index = i;
        char name[256] = {};
        check(deviceGetName(name, sizeof name, dev), "cuDeviceGetName");
        d.name = name;
        check(deviceGetAttribute(&d.major, kAttrComputeMajor, dev), "cuDeviceGetAttribute");
        check(deviceGetAttribute(&d.minor, kAttrComputeMinor, dev), "cuDeviceGetAttribute");
        int l2 = 0;
        check(deviceGetAttribute(&l2, kAttrL2CacheSize, dev), "cuDeviceGetAttribute");
        d.l2Bytes = l2;
        check(deviceGetAttribute(&d.multiprocessors, kAttrMultiprocessorCount, dev), "cuDeviceGetAttribute");
        check(deviceGetAttribute(&d.clockKHz, kAttrClockRate, dev), "cuDeviceGetAttribute");
        check(deviceGetAttribute(&d.sharedPerBlockOptin, kAttrSharedPerBlockOptin, dev), "cuDeviceGetAttribute");
        check(deviceTotalMem(&d.totalMemory, dev), "cuDeviceTotalMem");
        out.push_back(d);
    }
    return out;
}

} // namespace sieve::gpu
