#pragma once
// The SQL of the verdict tables (verdicts, verdict_payloads, verdict_checks, verdict_timings) in one
// place, with the plain rows they hold: the verify run's writer thread stores verdicts with it, and
// `sieve-cli merge` reads them from shard results files and stores them again in the corpus. Also the
// two statements that mirror a verdict into samples.status/speedup and the one that stores a task's
// hygiene flags.
#include "core/db/database.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace sieve::store {

// The verdict flag of a verdict made without stage 0 (`sieve-cli verify --skip-static`): select and export
// do not count such a PASS as passing unless told to (SelectionOptions::includeSkipStatic).
inline constexpr const char *kStaticSkippedFlag = "STATIC_SKIPPED";

struct VerdictCheck
{
    int shapeIndex = 0;
    std::string shapeJson;
    int seed = 0;
    bool ok = false;
    std::optional<double> maxAbs, maxRel;
    std::optional<std::int64_t> mismatches, nonfiniteMismatches;
};

struct VerdictTiming
{
    int shapeIndex = 0;
    std::string which; // candidate | eager | compile
    std::optional<double> medianMs, meanMs, stdMs;
    std::optional<std::int64_t> runs;
};

// One verdict as written to the corpus (verdicts + verdict_payloads + checks + timings).
struct VerdictRecord
{
    std::int64_t sampleId = 0;
    std::int64_t taskId = 0;
    std::string sampleName, taskName;
    std::string status, stage;
    std::vector<std::string> reasons;
    std::string message, log;
    std::string device;
    bool interpreted = false;
    std::optional<std::int64_t> kernelsLaunched;
    std::optional<double> customKernelShare;
    std::optional<double> candidateMs, eagerMs, compileMs, speedup;
    std::vector<std::string> flags;
    std::optional<double> durationMs;
    std::vector<VerdictCheck> checks;
    std::vector<VerdictTiming> timings;
    nlohmann::json details; // everything the worker said that has no column (for the GUI's detail view)
    int worker = -1;        // which engine worker produced it
};

class VerdictInserter
{
public:
    explicit VerdictInserter(db::Database &db);

    // Stores one verdict with its log, details, checks and timings. nullopt when run `runId` already
    // has a verdict for the sample (the first one is kept). Does not touch samples.status.
    std::optional<std::int64_t> insert(std::int64_t runId, const VerdictRecord &v, std::int64_t createdAt);

private:
    db::Database &m_db;
    db::Statement m_verdict, m_payload, m_check, m_timing;
};

struct StoredVerdict
{
    VerdictRecord record; // sampleId, taskId, names, and everything insert() stores
    std::string sampleKey, taskKey, codeHash;
    std::int64_t createdAt = 0;
};

// Every verdict of run `runId` in id order, read back as insert() stored it.
void forEachVerdict(const db::Database &db, std::int64_t runId, const std::function<void(const StoredVerdict &)> &fn);

// samples.status/speedup mirror the newest verdict so lists and filters need no join. Prepared once.
class SampleStatusUpdater
{
public:
    // `unlessNewer`: leave a sample alone when it has a verdict newer than the one being mirrored (a
    // merged shard verified before a later local run must not win).
    explicit SampleStatusUpdater(db::Database &db, bool unlessNewer = false);
    void update(std::int64_t sampleId, const std::string &status, std::optional<double> speedup,
                std::int64_t verdictCreatedAt = 0);

private:
    db::Statement m_update;
    bool m_unlessNewer;
};

// Task hygiene: tasks.flags := the codes, comma separated (nullopt clears them).
void setTaskFlags(db::Database &db, std::int64_t taskId, const std::optional<std::string> &flags);

std::string joinComma(const std::vector<std::string> &v);
std::vector<std::string> splitComma(const std::string &s);

// Every value samples.status and verdicts.status take (docs/VERIFIER.md), PENDING first.
const std::vector<std::string> &verdictStatuses();

} // namespace sieve::store
