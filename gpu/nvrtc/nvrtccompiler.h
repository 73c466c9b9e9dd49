#pragma once
// CUDA C++ to PTX and CUBIN through NVRTC, in-process: milliseconds per kernel instead of the seconds of
// an nvcc or torch extension build. Every result carries the log mapped to the sample's own lines and
// the per-kernel resources that ptxas reported.
#include "gpu/nvrtc/nvrtclog.h"

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace sieve::gpu {

struct CompileOptions
{
    std::string arch = "sm_90";               // sm_XX[a|f] (PTX + CUBIN) or compute_XX (PTX only)
    std::vector<std::string> extra;           // further NVRTC options, e.g. -DBLOCK=128, --use_fast_math
    std::vector<std::string> nameExpressions; // e.g. "&kernel<float>": instantiates templates
    bool useCache = true;
};

struct CompileResult
{
    bool ok = false;
    bool fromCache = false;
    std::string arch;
    std::string nvrtcVersion;
    std::vector<std::string> options; // exactly what NVRTC was given
    std::string rawLog;               // NVRTC's log as is (ptxas info included)
    std::string log;                  // mapped to the original file, without ptxas info lines
    std::vector<Diagnostic> diagnostics;
    PtxasReport resources;
    std::string ptx;
    std::string cubin;
    double millis = 0; // wall time of this call (cache look-up included)

    int errorCount() const;
};

// Thrown when nothing could be compiled at all (no NVRTC, an architecture NVRTC lacks); a source that
// fails to compile is a CompileResult with ok == false, not an exception.
struct CompilerUnavailable : std::runtime_error
{
    using std::runtime_error::runtime_error;
};

// "sm_90", "90", "sm_90a", "compute_80" -> canonical form; throws std::invalid_argument naming the value.
std::string normalizeArch(const std::string &arch);
// The SM number of an architecture string ("sm_90a" -> 90).
int archNumber(const std::string &arch);

// The architecture to compile for when none is given: SIEVE_CUDA_ARCH, else the first GPU's (lowered to
// the newest NVRTC supports), else sm_90. `source` (when given) says which of these decided.
std::string defaultArch(std::string *source = nullptr);

class NvrtcCompiler
{
public:
    // cacheDir empty: NvrtcCache::defaultDir().
    explicit NvrtcCompiler(std::string cacheDir = {});

    // Throws CompilerUnavailable. `map` relates the lines of `source` to the file they came from.
    CompileResult compile(const std::string &source, const SourceMap &map, const CompileOptions &options) const;
    CompileResult compile(const std::string &source, const std::string &fileName, const CompileOptions &options) const;

    const std::string &cacheDir() const { return m_cacheDir; }

private:
    std::string m_cacheDir;
};

} // namespace sieve::gpu
