#include "gpu/verify/verdictwriter.h"

#include "core/db/unixtime.h"
#include "core/store/verdictstore.h"
#include "core/store/verifyrunstore.h"

namespace sieve::gpu {

VerdictWriter::VerdictWriter(std::string dbPath, std::int64_t runId) : m_runId(runId)
{
    m_corpus.emplace(Corpus::open(dbPath));
    m_corpus->tuneForBulkWrites();
    const auto env = store::verifyRunEnvJson(m_corpus->db(), runId);
    m_env = env ? nlohmann::json::parse(*env, nullptr, false) : nlohmann::json::object();
    if (!m_env.is_object())
        m_env = nlohmann::json::object();
    m_thread = std::thread([this] { loop(); });
}

VerdictWriter::~VerdictWriter()
{
    if (!m_finished) {
        try {
            finish("interrupted");
        } catch (...) {
            // Destructors must not throw; the error was already reported through failed()/error().
        }
    }
}

void VerdictWriter::add(VerdictRecord verdict)
{
    {
        std::lock_guard lock(m_mutex);
        m_queue.emplace_back(std::move(verdict));
    }
    m_cv.notify_one();
}

void VerdictWriter::setTaskFlags(std::int64_t taskId, std::string flags)
{
    {
        std::lock_guard lock(m_mutex);
        m_queue.emplace_back(TaskFlags{taskId, std::move(flags)});
    }
    m_cv.notify_one();
}

void VerdictWriter::setWorkerEnv(int worker, nlohmann::json env, std::string workerVersion)
{
    {
        std::lock_guard lock(m_mutex);
        m_queue.emplace_back(WorkerEnv{worker, std::move(env), std::move(workerVersion)});
    }
    m_cv.notify_one();
}

bool VerdictWriter::failed() const
{
    std::lock_guard lock(m_mutex);
    return !m_error.empty();
}

std::string VerdictWriter::error() const
{
    std::lock_guard lock(m_mutex);
    return m_error;
}

void VerdictWriter::loop()
{
    std::deque<Item> batch;
    for (;;) {
        {
            std::unique_lock lock(m_mutex);
            // Wait for a full batch, the delay, or the stop request, whichever comes first.
            m_cv.wait(lock, [&] { return m_stopping || !m_queue.empty(); });
            if (!m_stopping && m_queue.size() < kBatch)
                m_cv.wait_for(lock, kMaxDelay, [&] { return m_stopping || m_queue.size() >= kBatch; });
            batch.swap(m_queue);
            if (batch.empty() && m_stopping)
                return;
        }
        try {
            writeBatch(batch);
        } catch (const std::exception &e) {
            std::lock_guard lock(m_mutex);
            if (m_error.empty())
                m_error = std::string("writing verdicts to the corpus failed: ") + e.what();
        }
        batch.clear();
    }
}

void VerdictWriter::writeBatch(std::deque<Item> &batch)
{
    if (batch.empty())
        return;
    db::Database &db = m_corpus->db();
    db::Transaction tx(db);
    store::VerdictInserter inserter(db);
    store::SampleStatusUpdater updSample(db);
    const std::int64_t now = unixNow();
    bool envChanged = false;
    for (Item &item : batch) {
        if (auto *v = std::get_if<VerdictRecord>(&item)) {
            if (!inserter.insert(m_runId, *v, now))
                continue; // already verdicted in this run (a resume raced a late answer): keep the first
            // samples.status/speedup mirror the newest verdict so lists and filters need no join.
            updSample.update(v->sampleId, v->status, v->speedup);
        } else if (auto *f = std::get_if<TaskFlags>(&item)) {
            store::setTaskFlags(db, f->taskId,
                                f->flags.empty() ? std::optional<std::string>() : std::optional<std::string>(f->flags));
        } else if (auto *w = std::get_if<WorkerEnv>(&item)) {
            nlohmann::json &workers = m_env["workers"];
            if (!workers.is_object())
                workers = nlohmann::json::object();
            workers[std::to_string(w->worker)] = w->env;
            // The first worker's environment is also copied to the top level, where queries look.
            for (const char *key : {"gpu", "driver", "cuda", "torch", "triton", "python", "numpy", "device"})
                if (w->env.contains(key) && !m_env.contains(key))
                    m_env[key] = w->env[key];
            m_env["worker_version"] = w->version;
            envChanged = true;
        }
    }
    if (envChanged) {
        store::setVerifyRunEnv(db, m_runId, m_env.dump(),
                               std::string("engine ") + kEngineVersion + ", worker " +
                                   jsonString(m_env, "worker_version", "?"));
    }
    tx.commit();
}

void VerdictWriter::finish(const std::string &runState)
{
    if (m_finished)
        return;
    m_finished = true;
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_cv.notify_one();
    if (m_thread.joinable())
        m_thread.join();
    const std::string err = error();
    // After a failed batch the run is left 'interrupted': what was written stays, a resume redoes the rest.
    const std::string state = err.empty() ? runState : std::string("interrupted");
    const bool final = state == "finished" || state == "failed";
    store::setVerifyRunState(m_corpus->db(), m_runId, state,
                             final ? std::optional<std::int64_t>(unixNow()) : std::nullopt);
    if (!err.empty())
        throw std::runtime_error(err);
}

} // namespace sieve::gpu
