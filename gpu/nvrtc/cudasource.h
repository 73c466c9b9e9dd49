#pragma once
// Where the CUDA C++ of an answer is: a whole .cu file, or the `cuda_sources` of a KernelBench-style
// torch.utils.cpp_extension.load_inline(...) call in a Python answer (string literals, module-level
// string variables, lists of them), with a line map back to the .py file. And the NVRTC precheck of
// such sources: torch's extension headers do not compile under NVRTC, so host code is removed and
// kernels that need torch's headers are honestly reported as not prechecked.
#include "gpu/nvrtc/nvrtclog.h"

#include <string>
#include <vector>

namespace sieve::gpu {

struct CudaUnit
{
    std::string origin; // e.g. "load_inline(name='fused_relu') cuda_sources", "whole file"
    std::string source; // CUDA C++ as the extension build would see it (minus torch's own prelude)
    SourceMap map;      // source lines -> lines of the original file
    int firstLine = 0;  // in the original file
    int lastLine = 0;
    std::string dynamicReason;             // non-empty: built at run time (f-string, .format, a call); text is partial
    std::vector<std::string> extraOptions; // NVRTC-compatible flags from extra_cuda_cflags (-D..., fast math)
};

// Every load_inline(...) call's cuda_sources; when there is none, every string literal that holds a
// __global__ function (cupy.RawKernel and similar). Empty when the file has no CUDA at all.
std::vector<CudaUnit> extractCudaFromPython(const std::string &python, const std::string &fileName);

// A .cu file: one unit, identity map.
CudaUnit cudaUnitFromFile(const std::string &source, const std::string &fileName);

struct PrecheckSource
{
    std::string source;               // what NVRTC compiles: prelude + the unit with host code blanked out
    SourceMap map;                    // through the prelude and the unit's own map
    std::string skipReason;           // non-empty: NVRTC cannot judge this unit (needs torch headers, no kernel...)
    int kernels = 0;                  // __global__ functions kept
    std::vector<std::string> options; // torch's extension flags that NVRTC understands, + the unit's
    // Template kernels are only parsed when instantiated: "&k<float>" for each one whose type parameters
    // the source itself instantiates with float (AT_DISPATCH_FLOATING_TYPES or k<float>).
    std::vector<std::string> nameExpressions;
    std::vector<std::string> uninstantiated; // template kernels left unchecked (names)
};

// Keeps __global__/__device__/constexpr functions, types, __constant__ data and macros; blanks host
// functions, host declarations and includes NVRTC cannot open (lines are kept, so the map stays exact).
PrecheckSource prepareForNvrtc(const CudaUnit &unit);

// After a failed precheck compile: true when the errors may come from what the precheck removed (an
// undefined macro-like identifier or a header NVRTC cannot open) rather than from the device code.
bool precheckInconclusive(const std::vector<Diagnostic> &diagnostics);

} // namespace sieve::gpu
