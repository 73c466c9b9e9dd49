#pragma once
// The SQL of the verdict tables (verdicts, verdict_payloads, verdict_checks, verdict_timings) in one
// place: the verify run's writer thread stores verdicts with it, and `sieve-cli merge` reads them from
// shard results files and stores them again in the corpus.
#include "core/db/database.h"
#include "gpu/verify/verifytypes.h"

#include <cstdint>
#include <functional>
#include <optional>

namespace sieve::gpu {

class VerdictInserter {
public:
    explicit VerdictInserter(db::Database &db);

    // Stores one verdict with its log, details, checks and timings. nullopt when run `runId` already
    // has a verdict for the sample (the first one is kept). Does not touch samples.status.
    std::optional<std::int64_t> insert(std::int64_t runId, const VerdictRecord &v, std::int64_t createdAt);

private:
    db::Database &m_db;
    db::Statement m_verdict, m_payload, m_check, m_timing;
};

struct StoredVerdict {
    VerdictRecord record; // sampleId, taskId, names, and everything insert() stores
    std::string sampleKey, taskKey, codeHash;
    std::int64_t createdAt = 0;
};

// Every verdict of run `runId` in id order, read back as insert() stored it.
void forEachVerdict(const db::Database &db, std::int64_t runId, const std::function<void(const StoredVerdict &)> &fn);

std::string joinComma(const std::vector<std::string> &v);
std::vector<std::string> splitComma(const std::string &s);

} // namespace sieve::gpu
