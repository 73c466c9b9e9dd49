#pragma once
// The one thread that writes a verification run to the corpus. Engine threads hand it verdicts, task
// flags and the run's environment; it batches them into transactions (at most kBatch records or
// kMaxDelay between commits) so that a crash loses at most the last fraction of a second, and SQLite
// sees one writer.
#include "core/db/corpus.h"
#include "gpu/verify/verifytypes.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <variant>

namespace sieve::gpu {

class VerdictWriter
{
public:
    static constexpr std::size_t kBatch = 64;
    static constexpr std::chrono::milliseconds kMaxDelay{250};

    // Opens its own read-write connection to dbPath.
    VerdictWriter(std::string dbPath, std::int64_t runId);
    ~VerdictWriter(); // finish()es if the caller did not

    void add(VerdictRecord verdict);
    // Task hygiene: tasks.flags := the codes, comma separated ("" clears them).
    void setTaskFlags(std::int64_t taskId, std::string flags);
    // Merges `env` into verify_runs.env_json (the worker's hello), keyed by worker index.
    void setWorkerEnv(int worker, nlohmann::json env, std::string workerVersion);
    // Writes what is queued, sets the run's state and stops the thread. Rethrows a write error.
    void finish(const std::string &runState);
    // Set when a write failed; the engine stops the run then.
    bool failed() const;
    std::string error() const;

private:
    struct TaskFlags
    {
        std::int64_t taskId;
        std::string flags;
    };
    struct WorkerEnv
    {
        int worker;
        nlohmann::json env;
        std::string version;
    };
    using Item = std::variant<VerdictRecord, TaskFlags, WorkerEnv>;

    void loop();
    void writeBatch(std::deque<Item> &batch);

    std::optional<Corpus> m_corpus;
    nlohmann::json m_env;
    std::int64_t m_runId;
    mutable std::mutex m_mutex;
    std::condition_variable m_cv;
    std::deque<Item> m_queue;
    bool m_stopping = false;
    std::string m_error;
    std::thread m_thread;
    bool m_finished = false;
};

} // namespace sieve::gpu
