#pragma once
// The sampler's side of the corpus: sampling runs (sample_runs), the attempts they stored
// (sample_run_items) and the samples themselves. Plain C++ over db::Database; one writer.
//
// "Nothing counted twice" rests on two keys: an item is (run, task, attempt) and a sample's key is
// derived from the same triple, and the sample, its payloads and its item go in one transaction.
#include "core/db/corpus.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace sieve::store {

struct TaskRef
{
    std::int64_t id = 0;
    std::string key, name, backend, dtype;
};

struct RunRecord
{
    std::int64_t id = 0;
    std::string name;
    bool resumed = false;
    nlohmann::json params; // as stored (on resume: the run's own, which the caller must follow)
};

struct ItemRecord
{
    std::int64_t taskId = 0;
    int attempt = 0;
    std::optional<std::int64_t> sampleId;
    std::optional<std::string> status; // the verifier's status (first-pass mode); empty = not verified
};

struct AttemptRecord
{
    std::int64_t runId = 0;
    std::string runName;
    TaskRef task;
    int attempt = 0;
    std::string model;
    double temperature = 0;
    bool hasAnswer = false;
    std::string code, reasoning;
    std::string response; // raw reply bytes
    std::string request;  // the request body as sent (it never holds the key)
};

// The stored run was started with other sampling parameters than the ones asked for now.
struct RunMismatch : std::runtime_error
{
    using std::runtime_error::runtime_error;
};

class SampleStore
{
public:
    explicit SampleStore(const std::string &dbPath);

    // Tasks by name (throws std::runtime_error naming the first unknown one), or all tasks when empty.
    std::vector<TaskRef> resolveTasks(const std::vector<std::string> &names);
    std::vector<TaskRef> tasksByIds(const std::vector<std::int64_t> &ids);
    std::string referenceCode(std::int64_t taskId);

    // Creates the run, or finds it by name. `params` is compared key by key with a stored run's
    // params, except "task_ids" (resolved when the run started); a difference throws RunMismatch.
    RunRecord openRun(const std::string &name, const std::string &mode, const std::string &endpoint,
                      const std::string &model, const nlohmann::json &params);
    std::vector<ItemRecord> items(std::int64_t runId);

    // Stores one attempt; returns the sample id. When the item already exists (a duplicate reply) the
    // existing sample id is returned and nothing is written.
    std::int64_t storeAttempt(const AttemptRecord &a);
    void setStatus(std::int64_t runId, std::int64_t taskId, int attempt, const std::string &status);
    // The verifier's latest status for a sample: its newest verdict, else samples.status unless PENDING.
    std::optional<std::string> verifiedStatus(std::int64_t sampleId);
    void finishRun(std::int64_t runId, const std::string &state, const std::string &error, const nlohmann::json &stats);

    Corpus &corpus() { return m_corpus; }

private:
    // Prepared once: storeAttempt runs once per reply, up to thousands a minute.
    db::Statement &cached(db::Statement &slot, const char *sql);
    Corpus m_corpus;
    db::Statement m_findItem, m_insertSample, m_insertPayloads, m_insertItem;
};

} // namespace sieve::store
