#pragma once
// The corpus side of a verification run: the verify_runs row, which samples it covers, and what a
// resume still has to do. Everything here runs on the caller's connection before the engine starts.
#include "core/store/verifyrunstore.h"
#include "gpu/verify/verifytypes.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sieve {
class Corpus;
}

namespace sieve::gpu {

struct RunRow
{
    std::int64_t id = 0;
    std::string state, mode;
    nlohmann::json params;
};

// The newest run whose state is 'running' (the process died) or 'interrupted' (SIGINT/SIGTERM).
std::optional<RunRow> latestUnfinishedRun(Corpus &corpus);

// "cpu" or "gpu:0,1".
std::string runMode(const VerifyOptions &options);
// The parameters stored with a run: mode, selection, parallelism, timing, timeouts, limits.
nlohmann::json runParams(const VerifyOptions &options);

std::int64_t createRun(Corpus &corpus, const VerifyOptions &options);
void setRunState(Corpus &corpus, std::int64_t runId, const std::string &state);

using SampleRef = store::SampleRef;

// Samples of `selection` that have no verdict in run `runId` yet, ordered by task then id so that a
// worker reuses its task's cached references. `alreadyDone` receives the count of verdicts the run
// already has (resume).
std::vector<SampleRef> pendingSamples(Corpus &corpus, const SampleSelection &selection, std::int64_t runId,
                                      std::uint64_t &alreadyDone);

// Status counts of the verdicts a run already holds.
std::map<std::string, std::uint64_t> runStatusCounts(Corpus &corpus, std::int64_t runId);

} // namespace sieve::gpu
