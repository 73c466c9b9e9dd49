#pragma once
// The compile stage for CUDA answers: find the CUDA units of a sample (.cu file, load_inline answer,
// string literals) and judge each with NVRTC. Shared by `sieve-cli compile` and the verifier, which
// fails a sample at once on a genuine device-code error instead of after a 30-60 s extension build.
#include "gpu/nvrtc/cudasource.h"
#include "gpu/nvrtc/nvrtccompiler.h"

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

namespace sieve::gpu {

struct UnitCheck
{
    enum class Status { Compiled, Failed, Skipped, Inconclusive };
    CudaUnit unit;
    Status status = Status::Skipped;
    std::string reason;                  // why skipped / inconclusive; empty otherwise
    bool prechecked = false;             // host code was stripped (torch extension source)
    std::optional<CompileResult> result; // absent when skipped before compiling
};

const char *statusName(UnitCheck::Status status);

// Python when the name ends in .py or the text looks like Python; CUDA C++ otherwise.
std::vector<CudaUnit> cudaUnitsOf(const std::string &code, const std::string &fileName);

// A .cu unit that includes torch, ATen or pybind11 headers is a torch extension and gets the precheck
// treatment, like a load_inline source; a raw CUDA unit compiles as it is.
UnitCheck checkUnit(const CudaUnit &unit, const NvrtcCompiler &compiler, const CompileOptions &options);

nlohmann::json toJson(const UnitCheck &check, bool withPtx = false);

} // namespace sieve::gpu
