#include "core/store/verifyrunstore.h"

#include <algorithm>

namespace sieve::store {

std::optional<VerifyRunRow> latestUnfinishedRun(const db::Database &db)
{
    // A serve run (a sampler's verifier) that was killed is not for `verify` to resume: its sampler
    // hands the samples that lack a verdict to its next verifier itself.
    db::Statement st = db.prepare("SELECT id, state, mode, params_json FROM verify_runs "
                                  "WHERE state IN ('running','interrupted') AND "
                                  "(params_json IS NULL OR json_extract(params_json, '$.serve') IS NULL) "
                                  "ORDER BY id DESC LIMIT 1");
    if (!st.step())
        return std::nullopt;
    VerifyRunRow r;
    r.id = st.int64(0);
    r.state = st.text(1);
    r.mode = st.text(2);
    if (!st.isNull(3))
        r.paramsJson = st.text(3);
    return r;
}

std::int64_t insertVerifyRun(db::Database &db, std::int64_t startedAt, const std::string &mode,
                             const std::string &envJson, const std::string &paramsJson, const std::string &sieveVersion,
                             const std::string &verifierVersion)
{
    db.prepare("INSERT INTO verify_runs(started_at, state, mode, env_json, params_json, sieve_version, "
               "verifier_version) VALUES(?1, 'running', ?2, ?3, ?4, ?5, ?6)")
        .bind(1, startedAt)
        .bind(2, mode)
        .bind(3, envJson)
        .bind(4, paramsJson)
        .bind(5, sieveVersion)
        .bind(6, verifierVersion)
        .run();
    return db.lastInsertId();
}

void setVerifyRunState(db::Database &db, std::int64_t runId, const std::string &state,
                       std::optional<std::int64_t> finishedAt)
{
    db.prepare("UPDATE verify_runs SET state=?1, finished_at=?2 WHERE id=?3")
        .bind(1, state)
        .bind(2, finishedAt)
        .bind(3, runId)
        .run();
}

std::optional<std::string> verifyRunEnvJson(const db::Database &db, std::int64_t runId)
{
    return db.queryText("SELECT env_json FROM verify_runs WHERE id=" + std::to_string(runId));
}

void setVerifyRunEnv(db::Database &db, std::int64_t runId, const std::string &envJson,
                     const std::string &verifierVersion)
{
    db.prepare("UPDATE verify_runs SET env_json=?1, verifier_version=?2 WHERE id=?3")
        .bind(1, envJson)
        .bind(2, verifierVersion)
        .bind(3, runId)
        .run();
}

std::int64_t finishedVerifyRunCount(const db::Database &db)
{
    return db.queryInt("SELECT count(*) FROM verify_runs WHERE state='finished'").value_or(0);
}

void abandonUnfinishedServeRuns(db::Database &db)
{
    db.exec("UPDATE verify_runs SET state='abandoned' WHERE state IN ('running','interrupted') "
            "AND json_extract(params_json, '$.serve') IS NOT NULL");
}

std::uint64_t runVerdictCount(const db::Database &db, std::int64_t runId)
{
    db::Statement c = db.prepare("SELECT count(*) FROM verdicts WHERE run_id=?1");
    c.bind(1, runId);
    return c.step() ? static_cast<std::uint64_t>(c.int64(0)) : 0;
}

std::map<std::string, std::uint64_t> runStatusCounts(const db::Database &db, std::int64_t runId)
{
    std::map<std::string, std::uint64_t> m;
    db::Statement st = db.prepare("SELECT status, count(*) FROM verdicts WHERE run_id=?1 GROUP BY status");
    st.bind(1, runId);
    while (st.step())
        m[st.text(0)] = static_cast<std::uint64_t>(st.int64(1));
    return m;
}

std::vector<SampleRef> samplesWithoutVerdict(db::Database &db, std::int64_t runId, bool all,
                                             const std::vector<std::string> &tasks,
                                             const std::vector<std::int64_t> &ids, std::optional<std::int64_t> limit)
{
    std::string sql = "SELECT s.id, s.task_id FROM samples s JOIN tasks t ON t.id = s.task_id WHERE "
                      "NOT EXISTS (SELECT 1 FROM verdicts v WHERE v.run_id = ?1 AND v.sample_id = s.id)";
    if (!all)
        sql += " AND s.status = 'PENDING'";
    // Filters go into a temp table so that any number of names or ids binds safely.
    db.exec("CREATE TEMP TABLE IF NOT EXISTS verify_sel_tasks(name TEXT PRIMARY KEY)");
    db.exec("CREATE TEMP TABLE IF NOT EXISTS verify_sel_ids(id INTEGER PRIMARY KEY)");
    db.exec("DELETE FROM verify_sel_tasks; DELETE FROM verify_sel_ids");
    for (const auto &t : tasks)
        db.prepare("INSERT OR IGNORE INTO verify_sel_tasks(name) VALUES(?1)").bind(1, t).run();
    for (auto id : ids)
        db.prepare("INSERT OR IGNORE INTO verify_sel_ids(id) VALUES(?1)").bind(1, id).run();
    if (!tasks.empty())
        sql += " AND t.name IN (SELECT name FROM verify_sel_tasks)";
    if (!ids.empty())
        sql += " AND s.id IN (SELECT id FROM verify_sel_ids)";
    sql += " ORDER BY s.task_id, s.id";
    if (limit)
        sql += " LIMIT " + std::to_string(*limit);
    db::Statement st = db.prepare(sql);
    st.bind(1, runId);
    std::vector<SampleRef> out;
    while (st.step())
        out.push_back({st.int64(0), st.int64(1)});
    return out;
}

std::optional<VerifyRunCopy> readVerifyRun(const db::Database &db, std::int64_t runId)
{
    db::Statement run = db.prepare("SELECT started_at, finished_at, state, mode, env_json, params_json, "
                                   "sieve_version, verifier_version FROM verify_runs WHERE id=?1");
    run.bind(1, runId);
    if (!run.step())
        return std::nullopt;
    auto optText = [&](int c) {
        return run.isNull(c) ? std::optional<std::string>() : std::optional<std::string>(run.text(c));
    };
    VerifyRunCopy r;
    r.startedAt = run.int64(0);
    r.finishedAt = run.optInt64(1);
    r.state = run.text(2);
    r.mode = run.text(3);
    r.envJson = optText(4);
    r.paramsJson = optText(5);
    r.sieveVersion = optText(6);
    r.verifierVersion = optText(7);
    return r;
}

std::int64_t insertVerifyRunCopy(db::Database &db, const VerifyRunCopy &run)
{
    db.prepare("INSERT INTO verify_runs(started_at, finished_at, state, mode, env_json, params_json, sieve_version, "
               "verifier_version) VALUES(?1,?2,?3,?4,?5,?6,?7,?8)")
        .bind(1, run.startedAt)
        .bind(2, run.finishedAt)
        .bind(3, run.state)
        .bind(4, run.mode)
        .bind(5, run.envJson)
        .bind(6, run.paramsJson)
        .bind(7, run.sieveVersion)
        .bind(8, run.verifierVersion)
        .run();
    return db.lastInsertId();
}

std::optional<std::int64_t> mergedRunId(const db::Database &db, const std::string &uid)
{
    db::Statement st =
        db.prepare("SELECT id FROM verify_runs WHERE json_extract(params_json, '$.merged_from.run_uid') = ?1 LIMIT 1");
    st.bind(1, uid);
    if (!st.step())
        return std::nullopt;
    return st.int64(0);
}

std::vector<RunVerdicts> runsWithVerdictCounts(const db::Database &db)
{
    db::Statement runs = db.prepare("SELECT r.id, r.state, (SELECT count(*) FROM verdicts v WHERE v.run_id = r.id) "
                                    "FROM verify_runs r ORDER BY r.id");
    std::vector<RunVerdicts> out;
    while (runs.step())
        out.push_back({runs.int64(0), runs.text(1), runs.int64(2)});
    return out;
}

} // namespace sieve::store
