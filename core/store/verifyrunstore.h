#pragma once
// The SQL of verification runs (verify_runs) and of the samples a run still has to verify, over plain
// types: gpu's verifyrun.h builds a run's parameters and environment, this stores and reads them.
// Everything runs on the caller's connection and inside the caller's transaction, if any.
#include "core/db/database.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sieve::store {

struct VerifyRunRow
{
    std::int64_t id = 0;
    std::string state, mode;
    std::optional<std::string> paramsJson;
};

// The newest run whose state is 'running' or 'interrupted', serve runs (params_json.serve) excepted.
std::optional<VerifyRunRow> latestUnfinishedRun(const db::Database &db);

// A new run in state 'running'; returns its id.
std::int64_t insertVerifyRun(db::Database &db, std::int64_t startedAt, const std::string &mode,
                             const std::string &envJson, const std::string &paramsJson, const std::string &sieveVersion,
                             const std::string &verifierVersion);
void setVerifyRunState(db::Database &db, std::int64_t runId, const std::string &state,
                       std::optional<std::int64_t> finishedAt);
std::optional<std::string> verifyRunEnvJson(const db::Database &db, std::int64_t runId);
void setVerifyRunEnv(db::Database &db, std::int64_t runId, const std::string &envJson,
                     const std::string &verifierVersion);
// Runs in state 'finished'.
std::int64_t finishedVerifyRunCount(const db::Database &db);
// Serve runs are never resumed (their samples come from the sampler): a killed one becomes 'abandoned'.
void abandonUnfinishedServeRuns(db::Database &db);

// Verdicts run `runId` holds.
std::uint64_t runVerdictCount(const db::Database &db, std::int64_t runId);
// Status counts of the verdicts a run holds.
std::map<std::string, std::uint64_t> runStatusCounts(const db::Database &db, std::int64_t runId);

struct SampleRef
{
    std::int64_t id = 0;
    std::int64_t taskId = 0;
};

// Samples without a verdict in run `runId`, ordered by task then id: only PENDING ones unless `all`,
// only of the named tasks and the given ids when those are not empty, at most `limit`. The filters go
// through temp tables (verify_sel_tasks, verify_sel_ids) so that any number of them binds safely.
std::vector<SampleRef> samplesWithoutVerdict(db::Database &db, std::int64_t runId, bool all,
                                             const std::vector<std::string> &tasks,
                                             const std::vector<std::int64_t> &ids, std::optional<std::int64_t> limit);

// One run's row as stored, for copying it into another file (`sieve-cli merge`).
struct VerifyRunCopy
{
    std::int64_t startedAt = 0;
    std::optional<std::int64_t> finishedAt;
    std::string state, mode;
    std::optional<std::string> envJson, paramsJson, sieveVersion, verifierVersion;
};
std::optional<VerifyRunCopy> readVerifyRun(const db::Database &db, std::int64_t runId);
// Inserts `run` as a new row (its paramsJson as given); returns the new id.
std::int64_t insertVerifyRunCopy(db::Database &db, const VerifyRunCopy &run);
// The corpus run that shard run `uid` became (params_json.merged_from.run_uid), if merged before.
std::optional<std::int64_t> mergedRunId(const db::Database &db, const std::string &uid);

struct RunVerdicts
{
    std::int64_t id = 0;
    std::string state;
    std::int64_t verdicts = 0;
};
// Every run of the file in id order with its verdict count.
std::vector<RunVerdicts> runsWithVerdictCounts(const db::Database &db);

} // namespace sieve::store
