#pragma once
// Native verification of raw CUDA answers (docs/FORMATS.md, "Raw CUDA answers"): NVRTC compile, the
// launch manifest checked against the kernels' PTX signatures and the task's inputs, launches on the
// inputs that the worker's trusted reference process materialised, comparison in C++, timing with
// events and an L2 flush. The kernels run in a freshly exec'd launch child (cudadriverlauncher.h), so a
// fault or a hang costs that child only. No Python runs the candidate: the worker only hands over the
// job file and turns the result into a verdict, like any other sample's.
#include "gpu/cuda/cudadriverlauncher.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace sieve::gpu {

struct NativeCase
{
    int shapeIndex = 0;
    nlohmann::json shape; // the size constants, for the verdict's checks
    int seed = 0;
    std::vector<std::string> inputs, expected;            // .npy files
    std::vector<std::string> inputDtypes, expectedDtypes; // fp32, fp16, bf16, ... (bf16 files hold <u2 bits)
    std::string inputSet;             // a derived input set's name (inputsets.py), "" for the task's
    std::optional<double> atol, rtol; // the set's own tolerance (zero for `exact`), else the job's
};

struct NativeJob
{
    std::string code; // the .cu answer with its /* sieve:launch ... */ manifest
    std::string name = "answer.cu";
    int device = 0;
    bool gpu = true;  // false: compile and check the manifest only (UNVERIFIABLE after that)
    std::string arch; // "" = the device's (asked in a child), else SIEVE_CUDA_ARCH, else sm_90
    double atol = 1e-4, rtol = 1e-4;
    std::vector<NativeCase> cases;
    double launchTimeoutS = 120;
    int timingRuns = 0;   // 0 = no timing
    std::string lockPath; // the worker's per-GPU timing lock
    std::string scratchDir;
    std::string cacheDir; // NVRTC cache ("" = the default)
    std::string launcher; // the sieve-cli that runs launch children ("" = this executable)

    static NativeJob fromJson(const nlohmann::json &j); // throws std::runtime_error naming the field
    double atolOf(const NativeCase &c) const { return c.atol.value_or(atol); }
    double rtolOf(const NativeCase &c) const { return c.rtol.value_or(rtol); }
};

// Compares one output with its expected value in double precision, as the worker's compare.py does:
// finite values within atol + rtol * |expected|; NaN/inf positions match only the same non-finite value
// and are counted apart. Adds to `check` (ok, max_abs, max_rel, mismatches, nonfinite_mismatches, note).
void compareTensor(const HostTensor &expected, const HostTensor &actual, double atol, double rtol,
                   nlohmann::json &check, const std::string &label);

// Runs the whole native ladder; the result has the worker's verdict fields (status, stage, reasons,
// message, log, checks, timings, launches, kernels, resources).
nlohmann::json verifyNative(const NativeJob &job);

} // namespace sieve::gpu
