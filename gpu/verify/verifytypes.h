#pragma once
// Plain data shared by the verification engine, its corpus writer and its users (sieve-cli, the GUI).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/store/verdictstore.h"

#include <nlohmann/json.hpp>

namespace sieve::gpu {

// The verdict rows are core's (core/verdictstore.h); the engine and its users name them unqualified.
using store::VerdictCheck;
using store::VerdictRecord;
using store::VerdictTiming;

// Bumped when the engine's behaviour changes verdicts (protocol, timeouts, what counts as a crash).
inline constexpr const char *kEngineVersion = "1";

// Which samples a run covers. Stored in verify_runs.params_json so that a resumed run covers the same set.
struct SampleSelection
{
    bool all = false;                  // false: only samples whose status is PENDING
    std::vector<std::string> tasks;    // task names; empty = every task
    std::vector<std::int64_t> ids;     // sample ids; empty = no restriction
    std::optional<std::int64_t> limit; // at most this many samples (after the filters), in id order

    nlohmann::json toJson() const;
    static SampleSelection fromJson(const nlohmann::json &j);
    bool operator==(const SampleSelection &) const = default;
};

struct StageTimeouts
{
    double compile = 120, correct = 120, timing = 120;
    double task = 300; // a task's reference + hygiene checks
};

struct VerifyOptions
{
    std::string dbPath;
    bool cpu = false;                        // Triton interpreter, one worker, no timing
    std::vector<int> gpus;                   // one worker per GPU index (ignored when cpu)
    int parallel = 4;                        // candidate children per worker
    bool timing = true;                      // --no-timing turns the timing stage off on GPUs
    std::optional<std::int64_t> resumeRunId; // continue this run (its selection replaces `selection`)
    // A long-lived run that verifies the samples handed to VerificationEngine::submit() as they come
    // (the sampler's first-pass loop), until closeInput(); `selection` is not used. Its workers start at
    // once, so the first sample finds them warm.
    bool serve = false;
    SampleSelection selection;
    std::string python; // explicit interpreter ("" = pythonenv's search order)
    StageTimeouts timeouts;
    // Stage 0's rule for partial answers (docs/VERIFIER.md, "Policies"): "strict" (every op of the forward
    // in the sample's own kernels) or "kernelbench" (a torch core op such as conv or GEMM plus the sample's
    // own epilogue kernels is accepted, with a finding naming the op). Sent with every verify request and
    // recorded in the run's params and environment.
    std::string policy = "strict";
    // Overrides from the command line (the workbench's settings): tolerances by dtype class replace the
    // tasks' own; seeds per shape (0..seeds-1); the timing loop's caps (the worker's defaults otherwise).
    std::optional<double> atolFp32, rtolFp32, atolHalf, rtolHalf;
    int seeds = 5;
    std::optional<int> timingMaxRuns;
    std::optional<double> timingBudgetMs;
    int memoryMb = 16384, processes = 64;
    // fp32 tl.dot precision candidates are verified with: "deployed" (Triton's default, TF32 on GPUs that
    // have it: what the kernel does where it runs) or "ieee" (TRITON_F32_DEFAULT=ieee, full fp32).
    std::string fp32Precision = "deployed";
    // Extra seconds on top of a job's stage timeouts before the engine stops trusting the worker and
    // kills its process group. Negative: half the longest stage timeout, between 5 and 60 s.
    double watchdogMarginS = -1;
    double watchdogMargin() const;
    // A worker that dies this many times in a row without finishing a sample ends the run as failed.
    int maxConsecutiveWorkerFailures = 3;
    std::string cacheDir;                         // "" = $XDG_CACHE_HOME/sieve/verify
    std::map<std::string, std::string> workerEnv; // extra environment for the workers (tests, debugging)
    // The verifier's own regression suite only: fixtures that probe the runtime defences behind the
    // static stage are sent with skip_static. Never set for user corpora (not reachable from sieve-cli).
    std::vector<std::int64_t> skipStaticSampleIds;
    // `sieve-cli verify --skip-static`: a measurement of the runtime walls alone. Every verify request of the
    // run carries skip_static (stage 0 never runs, no sample is screened), the run's params_json and env_json
    // record "skip_static": true, and every verdict it makes carries the flag STATIC_SKIPPED, which select and
    // export treat as not passing unless --include-skip-static. Never a default.
    bool skipStatic = false;
    // Extra fields merged into the task message of the named tasks (e.g. max_task_bytes, to test the
    // REF_TOO_LARGE hygiene check without a huge task).
    std::map<std::string, nlohmann::json> taskOverrides;
    // Merged into a new run's params_json and env_json (a shard run records its shard and the Slurm job).
    nlohmann::json extraParams = nlohmann::json::object();
    nlohmann::json extraEnv = nlohmann::json::object();
};

// j[key] when it is a string, else `fallback` (workers send null for unknown fields, e.g. "gpu" on a CPU).
inline std::string jsonString(const nlohmann::json &j, const char *key, const std::string &fallback = {})
{
    if (j.is_object()) {
        auto it = j.find(key);
        if (it != j.end() && it->is_string())
            return it->get<std::string>();
    }
    return fallback;
}

// Builds a record from a worker's verdict message; missing optional fields stay empty.
VerdictRecord verdictFromMessage(const nlohmann::json &msg);

struct RunCounts
{
    std::uint64_t total = 0; // samples in the run (including ones done before a resume)
    std::uint64_t done = 0;  // verdicts so far
    std::map<std::string, std::uint64_t> byStatus;
};

struct RunSummary
{
    std::int64_t runId = 0;
    std::string state; // finished | interrupted | empty (nothing to verify, no run created)
    RunCounts counts;
    std::uint64_t verdictsThisSession = 0;
    double wallSeconds = 0;
    double samplesPerMinute = 0; // verdicts of this session per minute of its wall time
    bool resumed = false;
    std::string error; // why the run failed, when it did
    // Samples this session got no verdict for because the harness failed them (the worker's device or sandbox,
    // the machine's load, a request it could not serve): they stay PENDING and the run 'interrupted' (resumable).
    std::uint64_t leftPending = 0;
    std::map<std::string, std::uint64_t> pendingReasons; // code -> samples
};

// Receives the engine's events. Called from the engine's threads (not the caller's): a GUI must hand
// them over to its own thread. Implementations must be quick and must not call back into the engine
// except cancel().
class VerifyObserver
{
public:
    virtual ~VerifyObserver() = default;
    virtual void runStarted(std::int64_t /*runId*/, bool /*resumed*/, const RunCounts & /*counts*/) {}
    // A worker came up (env from its hello) or went away (message says why).
    virtual void workerStarted(int /*worker*/, const nlohmann::json & /*env*/) {}
    virtual void workerLost(int /*worker*/, const std::string & /*why*/) {}
    // Taken by a worker (its task's reference may still be in preparation)...
    virtual void sampleStarted(std::int64_t /*sampleId*/, int /*worker*/) {}
    // ...and handed to it, to run now.
    virtual void sampleSent(std::int64_t /*sampleId*/, int /*worker*/) {}
    // No verdict: the harness failed the sample (code: DEVICE_UNAVAILABLE, SANDBOX_UNAVAILABLE, LOAD_TIMEOUT,
    // WORKER_ERROR); it stays PENDING for the next run.
    virtual void sampleLeftPending(std::int64_t /*sampleId*/, const std::string & /*name*/,
                                   const std::string & /*code*/, const std::string & /*message*/)
    {
    }
    // After the verdict was queued for the corpus writer.
    virtual void sampleFinished(const VerdictRecord & /*verdict*/, const RunCounts & /*counts*/) {}
    virtual void runFinished(const RunSummary & /*summary*/) {}
    // Something a user should read (a worker restarted, a worker protocol error), one line.
    virtual void notice(const std::string & /*text*/) {}
};

} // namespace sieve::gpu
