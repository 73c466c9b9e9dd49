#pragma once
// Native launches of raw CUDA answers through the driver API (cuModuleLoadData, cuLaunchKernel), in a
// child process: a kernel that faults or never ends takes down the child, never Sieve. The parent
// process does not initialise CUDA at all (CUDA does not survive fork), it only waits, kills at the
// timeout and reads the child's result files.
#include "cudasourcemanifest.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sieve::gpu {

struct HostTensor {
    std::vector<std::int64_t> shape;
    ElemType dtype = ElemType::F32;
    std::string bytes; // C-order, little-endian

    std::int64_t numel() const;
};

// .npy (format 1.0/2.0, C order, little-endian) for <f4 <f2 <f8 <i4 <i8 |u1 and bf16 stored as <u2 with
// a "bf16" file-name hint handled by the caller. Throws std::runtime_error naming the file.
HostTensor readNpy(const std::string &path);
void writeNpy(const std::string &path, const HostTensor &t);

struct LaunchRequest {
    std::string image; // cubin (ELF) or PTX text
    LaunchManifest manifest;
    std::vector<HostTensor> inputs;
    int device = 0;
    double timeoutSeconds = 30;
    int timingRuns = 0; // 0: correctness only; else timed repetitions after one warm-up
};

struct LaunchOutcome {
    enum class Status { Ok, LaunchError, Timeout, Crash, NoDevice };
    Status status = Status::Ok;
    std::string message;
    std::vector<HostTensor> outputs;
    std::vector<double> timingsMs; // per timed run (all launches of the manifest, L2 flushed before each)
};

const char *outcomeName(LaunchOutcome::Status s);

// The architecture of `device`, asked in a short-lived child so that this process never initialises
// CUDA (a later fork could not use it). Empty when there is no driver or no such device.
std::string deviceArchIsolated(int device, std::string *why = nullptr);

// Runs the manifest's launches in a forked child (see above). `scratchDir` receives the child's files.
LaunchOutcome launchIsolated(const LaunchRequest &request, const std::string &scratchDir);

} // namespace sieve::gpu
