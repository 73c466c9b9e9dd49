#include "core/store/samplestore.h"

#include "core/db/corpus.h"
#include "core/db/payload.h"
#include "core/util/hashing.h"

#include <chrono>

namespace sieve::store {

namespace {
std::int64_t nowSeconds()
{
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

TaskRef taskFrom(const db::Statement &st)
{
    return TaskRef{st.int64(0), st.text(1), st.text(2), st.text(3), st.text(4)};
}

constexpr const char *kTaskColumns = "SELECT id, task_key, name, backend, dtype FROM tasks";
} // namespace

SampleStore::SampleStore(const std::string &dbPath) : m_corpus(Corpus::open(dbPath)) {}

db::Statement &SampleStore::cached(db::Statement &slot, const char *sql)
{
    if (!slot.handle())
        slot = m_corpus.db().prepare(sql);
    slot.reset();
    return slot;
}

std::vector<TaskRef> SampleStore::resolveTasks(const std::vector<std::string> &names)
{
    std::vector<TaskRef> out;
    if (names.empty()) {
        db::Statement st = m_corpus.db().prepare(std::string(kTaskColumns) + " ORDER BY id");
        while (st.step())
            out.push_back(taskFrom(st));
        return out;
    }
    db::Statement st = m_corpus.db().prepare(std::string(kTaskColumns) + " WHERE name = ?1");
    for (const std::string &n : names) {
        st.reset();
        st.bind(1, n);
        if (!st.step())
            throw std::runtime_error("--task '" + n + "': no such task in " + m_corpus.path());
        out.push_back(taskFrom(st));
    }
    return out;
}

std::vector<TaskRef> SampleStore::tasksByIds(const std::vector<std::int64_t> &ids)
{
    std::vector<TaskRef> out;
    db::Statement st = m_corpus.db().prepare(std::string(kTaskColumns) + " WHERE id = ?1");
    for (std::int64_t id : ids) {
        st.reset();
        st.bind(1, id);
        if (!st.step())
            throw std::runtime_error("task id " + std::to_string(id) + " of this run is no longer in the corpus");
        out.push_back(taskFrom(st));
    }
    return out;
}

std::string SampleStore::referenceCode(std::int64_t taskId)
{
    db::Statement st = m_corpus.db().prepare("SELECT reference_code FROM task_payloads WHERE task_id = ?1");
    st.bind(1, taskId);
    if (!st.step())
        return {};
    return payload::unpack(st.blob(0));
}

RunRecord SampleStore::openRun(const std::string &name, const std::string &mode, const std::string &endpoint,
                               const std::string &model, const nlohmann::json &params)
{
    db::Transaction tx(m_corpus.db());
    db::Statement find = m_corpus.db().prepare("SELECT id, params_json FROM sample_runs WHERE name = ?1");
    find.bind(1, name);
    RunRecord run;
    run.name = name;
    if (find.step()) {
        run.id = find.int64(0);
        run.resumed = true;
        run.params = nlohmann::json::parse(find.text(1));
        std::string diff;
        for (const auto &[key, value] : params.items()) {
            if (key == "task_ids")
                continue;
            const nlohmann::json stored = run.params.contains(key) ? run.params[key] : nlohmann::json();
            if (stored != value)
                diff += (diff.empty() ? "" : ", ") + key + " was " + stored.dump() + ", now " + value.dump();
        }
        if (!diff.empty())
            throw RunMismatch("run '" + name + "' was started with other settings (" + diff +
                              "); resume it with the same settings or choose another --run-id");
        m_corpus.db()
            .prepare("UPDATE sample_runs SET state='running', error=NULL, endpoint=?2, updated_at=?3, "
                     "finished_at=NULL WHERE id=?1")
            .bind(1, run.id)
            .bind(2, endpoint)
            .bind(3, nowSeconds())
            .run();
    } else {
        m_corpus.db()
            .prepare("INSERT INTO sample_runs(name, mode, endpoint, model, params_json, sieve_version, started_at, "
                     "updated_at) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)")
            .bind(1, name)
            .bind(2, mode)
            .bind(3, endpoint)
            .bind(4, model)
            .bind(5, params.dump())
            .bind(6, std::string(SIEVE_VERSION))
            .bind(7, nowSeconds())
            .run();
        run.id = m_corpus.db().lastInsertId();
        run.params = params;
    }
    tx.commit();
    return run;
}

std::vector<ItemRecord> SampleStore::items(std::int64_t runId)
{
    std::vector<ItemRecord> out;
    db::Statement st = m_corpus.db().prepare(
        "SELECT task_id, attempt, sample_id, status FROM sample_run_items WHERE run_id = ?1 ORDER BY task_id, attempt");
    st.bind(1, runId);
    while (st.step()) {
        ItemRecord r;
        r.taskId = st.int64(0);
        r.attempt = static_cast<int>(st.int64(1));
        r.sampleId = st.optInt64(2);
        if (!st.isNull(3))
            r.status = st.text(3);
        out.push_back(std::move(r));
    }
    return out;
}

std::int64_t SampleStore::storeAttempt(const AttemptRecord &a)
{
    db::Database &db = m_corpus.db();
    db::Transaction tx(db);
    // A large import running alongside may have dropped samples_key; the key must stay unique.
    schema::requireSampleKeyIndex(db);
    db::Statement &existing =
        cached(m_findItem, "SELECT sample_id FROM sample_run_items WHERE run_id=?1 AND task_id=?2 AND attempt=?3");
    existing.bind(1, a.runId).bind(2, a.task.id).bind(3, a.attempt);
    if (existing.step() && !existing.isNull(0)) {
        const std::int64_t id = existing.int64(0);
        existing.reset();
        return id;
    }
    existing.reset();

    const std::string attempt = std::to_string(a.attempt);
    const std::int64_t now = nowSeconds();
    cached(m_insertSample,
           "INSERT INTO samples(sample_key, name, task_id, backend, origin, model, temperature, attempt, "
           "has_answer, code_hash, code_bytes, status, created_at) "
           "VALUES(?1, ?2, ?3, ?4, 'teacher', ?5, ?6, ?7, ?8, ?9, ?10, 'PENDING', ?11)")
        .bind(1, hashing::contentKey({"teacher", a.runName, a.task.key, attempt}))
        .bind(2, a.task.name + "/" + a.runName + "/a" + attempt)
        .bind(3, a.task.id)
        .bind(4, a.task.backend)
        .bind(5, a.model)
        .bind(6, a.temperature)
        .bind(7, a.attempt)
        .bind(8, a.hasAnswer ? 1 : 0)
        .bind(9, a.hasAnswer ? std::optional<std::string>(hashing::contentKey({a.code})) : std::nullopt)
        .bind(10, static_cast<std::int64_t>(a.hasAnswer ? a.code.size() : 0))
        .bind(11, now)
        .run();
    const std::int64_t sampleId = db.lastInsertId();
    db::Statement &payloads =
        cached(m_insertPayloads,
               "INSERT INTO sample_payloads(sample_id, code, reasoning, response, request) VALUES(?1,?2,?3,?4,?5)");
    payloads.bind(1, sampleId);
    if (a.hasAnswer)
        payloads.bindBlob(2, payload::pack(a.code));
    else
        payloads.bindNull(2);
    if (!a.reasoning.empty())
        payloads.bindBlob(3, payload::pack(a.reasoning));
    else
        payloads.bindNull(3);
    payloads.bindBlob(4, payload::pack(a.response));
    payloads.bindBlob(5, payload::pack(a.request));
    payloads.run();
    cached(
        m_insertItem,
        "INSERT INTO sample_run_items(run_id, task_id, attempt, sample_id, created_at) "
        "VALUES(?1, ?2, ?3, ?4, ?5) ON CONFLICT(run_id, task_id, attempt) DO UPDATE SET sample_id=excluded.sample_id")
        .bind(1, a.runId)
        .bind(2, a.task.id)
        .bind(3, a.attempt)
        .bind(4, sampleId)
        .bind(5, now)
        .run();
    tx.commit();
    return sampleId;
}

void SampleStore::setStatus(std::int64_t runId, std::int64_t taskId, int attempt, const std::string &status)
{
    m_corpus.db()
        .prepare("UPDATE sample_run_items SET status=?4, verified_at=?5 WHERE run_id=?1 AND task_id=?2 AND attempt=?3")
        .bind(1, runId)
        .bind(2, taskId)
        .bind(3, attempt)
        .bind(4, status)
        .bind(5, nowSeconds())
        .run();
}

std::optional<std::string> SampleStore::verifiedStatus(std::int64_t sampleId)
{
    db::Statement v = m_corpus.db().prepare("SELECT status FROM verdicts WHERE sample_id=?1 ORDER BY id DESC LIMIT 1");
    v.bind(1, sampleId);
    if (v.step())
        return v.text(0);
    db::Statement s = m_corpus.db().prepare("SELECT status FROM samples WHERE id=?1");
    s.bind(1, sampleId);
    if (s.step() && s.text(0) != "PENDING")
        return s.text(0);
    return std::nullopt;
}

void SampleStore::finishRun(std::int64_t runId, const std::string &state, const std::string &error,
                            const nlohmann::json &stats)
{
    const std::int64_t now = nowSeconds();
    m_corpus.db()
        .prepare("UPDATE sample_runs SET state=?2, error=?3, stats_json=?4, updated_at=?5, finished_at=?6 WHERE id=?1")
        .bind(1, runId)
        .bind(2, state)
        .bind(3, error.empty() ? std::optional<std::string>() : std::optional<std::string>(error))
        .bind(4, stats.dump())
        .bind(5, now)
        .bind(6, state == "running" ? std::optional<std::int64_t>() : std::optional<std::int64_t>(now))
        .run();
}

} // namespace sieve::store
