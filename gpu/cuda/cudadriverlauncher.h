#pragma once
// Native launches of raw CUDA answers through the driver API (cuModuleLoadData, cuLaunchKernel), in a
// child process: a kernel that faults or never ends takes down the child, never Sieve. The child is a
// freshly exec'd `sieve-cli cuda-launch-child DIR`, not a bare fork: CUDA does not survive fork, and the
// parent may well have initialised it (NVRTC itself loads libcuda and calls cuInit). The parent only
// writes the request files, waits, kills at the timeout and reads the child's result files.
#include "gpu/cuda/cudasourcemanifest.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sieve::gpu {

struct HostTensor
{
    std::vector<std::int64_t> shape;
    ElemType dtype = ElemType::F32;
    std::string bytes; // C-order, little-endian

    std::int64_t numel() const;
};

// .npy (format 1.0/2.0, C order, little-endian) for <f4 <f2 <f8 <i4 <i8 |u1 and bf16 stored as <u2 with
// a "bf16" file-name hint handled by the caller. Throws std::runtime_error naming the file.
HostTensor readNpy(const std::string &path);
void writeNpy(const std::string &path, const HostTensor &t);

struct LaunchRequest
{
    std::string image; // cubin (ELF) or PTX text
    LaunchManifest manifest;
    std::string manifestJson; // the text `manifest` was parsed from: what the child reads
    // Input sets, each in the manifest's order: all of them run in one child (one context, one module
    // load), the timed runs on the first.
    std::vector<std::vector<HostTensor>> cases;
    int device = 0;
    double timeoutSeconds = 30;
    int timingRuns = 0;   // 0: correctness only; else timed repetitions after one warm-up
    std::string launcher; // the sieve-cli that runs the child; empty: this process's own executable
};

struct LaunchOutcome
{
    enum class Status { Ok, LaunchError, Timeout, Crash, NoDevice };
    Status status = Status::Ok;
    std::string message;
    std::vector<std::vector<HostTensor>> outputs; // per case, in the manifest's order
    std::vector<double> timingsMs; // per timed run (all launches of the manifest, L2 flushed before each)
};

const char *outcomeName(LaunchOutcome::Status s);

// The architecture of `device` ("sm_90"), asked in a short-lived forked child, so that this process does
// not start CUDA just to ask; in this process when it already has (NVRTC calls cuInit). Cached per device.
// Empty when there is no driver or no such device.
std::string deviceArchIsolated(int device, std::string *why = nullptr);

// Runs the manifest's launches in a child process (see above). `scratchDir` holds the request and the
// child's result files.
LaunchOutcome launchIsolated(const LaunchRequest &request, const std::string &scratchDir);

// The child's side: reads the request from `scratchDir`, launches, writes out*.npy, timings.txt or
// error.txt. Returns the process exit status (0 ok, 3 an error described in error.txt).
int runLaunchChild(const std::string &scratchDir);

} // namespace sieve::gpu
