#include "gpu/verify/verifyrun.h"

#include "core/db/corpus.h"
#include "core/db/unixtime.h"

#include <algorithm>
#include <chrono>

namespace sieve::gpu {


double VerifyOptions::watchdogMargin() const
{
    if (watchdogMarginS >= 0)
        return watchdogMarginS;
    const double longest = std::max({timeouts.compile, timeouts.correct, timeouts.timing});
    return std::clamp(longest / 2, 5.0, 60.0);
}

nlohmann::json SampleSelection::toJson() const
{
    nlohmann::json j = {{"all", all}, {"tasks", tasks}, {"ids", ids}};
    j["limit"] = limit ? nlohmann::json(*limit) : nlohmann::json();
    return j;
}

SampleSelection SampleSelection::fromJson(const nlohmann::json &j)
{
    SampleSelection s;
    s.all = j.value("all", false);
    if (j.contains("tasks"))
        s.tasks = j.at("tasks").get<std::vector<std::string>>();
    if (j.contains("ids"))
        s.ids = j.at("ids").get<std::vector<std::int64_t>>();
    if (j.contains("limit") && !j.at("limit").is_null())
        s.limit = j.at("limit").get<std::int64_t>();
    return s;
}

std::optional<RunRow> latestUnfinishedRun(Corpus &corpus)
{
    // A serve run (a sampler's verifier) that was killed is not for `verify` to resume: its sampler
    // hands the samples that lack a verdict to its next verifier itself.
    db::Statement st = corpus.db().prepare("SELECT id, state, mode, params_json FROM verify_runs "
                                           "WHERE state IN ('running','interrupted') AND "
                                           "(params_json IS NULL OR json_extract(params_json, '$.serve') IS NULL) "
                                           "ORDER BY id DESC LIMIT 1");
    if (!st.step())
        return std::nullopt;
    RunRow r;
    r.id = st.int64(0);
    r.state = st.text(1);
    r.mode = st.text(2);
    r.params = st.isNull(3) ? nlohmann::json::object() : nlohmann::json::parse(st.text(3), nullptr, false);
    if (r.params.is_discarded())
        r.params = nlohmann::json::object();
    return r;
}

std::string runMode(const VerifyOptions &o)
{
    if (o.cpu)
        return "cpu";
    std::string m = "gpu:";
    for (size_t i = 0; i < o.gpus.size(); ++i) {
        m += i ? "," : "";
        m += std::to_string(o.gpus[i]);
    }
    return m;
}

nlohmann::json runParams(const VerifyOptions &o)
{
    nlohmann::json p = {{"mode", runMode(o)},
            {"selection", o.selection.toJson()},
            {"parallel", o.parallel},
            {"timing", o.timing && !o.cpu},
            {"fp32_precision", o.fp32Precision},
            {"policy", o.policy},
            {"timeouts",
             {{"compile", o.timeouts.compile},
              {"correct", o.timeouts.correct},
              {"timing", o.timeouts.timing},
              {"task", o.timeouts.task}}},
            {"limits", {{"memory_mb", o.memoryMb}, {"processes", o.processes}}}};
    if (o.serve)
        p["serve"] = true; // never resumed: its samples come from the sampler that ran it
    p["seeds"] = std::max(5, o.seeds);
    for (const auto &[key, value] : {std::pair{"atol_fp32", o.atolFp32}, std::pair{"rtol_fp32", o.rtolFp32},
                                     std::pair{"atol_half", o.atolHalf}, std::pair{"rtol_half", o.rtolHalf}})
        if (value)
            p["tolerances"][key] = *value;
    if (o.timingMaxRuns)
        p["timing_limits"]["max_runs"] = *o.timingMaxRuns;
    if (o.timingBudgetMs)
        p["timing_limits"]["max_seconds"] = *o.timingBudgetMs / 1000.0;
    if (o.extraParams.is_object())
        p.update(o.extraParams);
    return p;
}

std::int64_t createRun(Corpus &corpus, const VerifyOptions &o)
{
    // env_json is filled in when the first worker says hello; the versions known now go in at once.
    nlohmann::json env = {{"sieve_version", SIEVE_VERSION}, {"engine_version", kEngineVersion}, {"mode", runMode(o)},
                          {"fp32_precision", o.fp32Precision},
                          {"policy", o.policy}};
    if (o.extraEnv.is_object())
        env.update(o.extraEnv);
    corpus.db()
        .prepare("INSERT INTO verify_runs(started_at, state, mode, env_json, params_json, sieve_version, "
                 "verifier_version) VALUES(?1, 'running', ?2, ?3, ?4, ?5, ?6)")
        .bind(1, unixNow())
        .bind(2, runMode(o))
        .bind(3, env.dump())
        .bind(4, runParams(o).dump())
        .bind(5, std::string(SIEVE_VERSION))
        .bind(6, std::string("engine ") + kEngineVersion)
        .run();
    return corpus.db().lastInsertId();
}

void setRunState(Corpus &corpus, std::int64_t runId, const std::string &state)
{
    const bool final = state == "finished" || state == "failed";
    corpus.db()
        .prepare("UPDATE verify_runs SET state=?1, finished_at=?2 WHERE id=?3")
        .bind(1, state)
        .bind(2, final ? std::optional<std::int64_t>(unixNow()) : std::nullopt)
        .bind(3, runId)
        .run();
}

std::vector<SampleRef> pendingSamples(Corpus &corpus, const SampleSelection &sel, std::int64_t runId,
                                      std::uint64_t &alreadyDone)
{
    {
        db::Statement c = corpus.db().prepare("SELECT count(*) FROM verdicts WHERE run_id=?1");
        c.bind(1, runId);
        alreadyDone = c.step() ? static_cast<std::uint64_t>(c.int64(0)) : 0;
    }
    std::string sql = "SELECT s.id, s.task_id FROM samples s JOIN tasks t ON t.id = s.task_id WHERE "
                      "NOT EXISTS (SELECT 1 FROM verdicts v WHERE v.run_id = ?1 AND v.sample_id = s.id)";
    if (!sel.all)
        sql += " AND s.status = 'PENDING'";
    // Filters go into a temp table so that any number of names or ids binds safely.
    corpus.db().exec("CREATE TEMP TABLE IF NOT EXISTS verify_sel_tasks(name TEXT PRIMARY KEY)");
    corpus.db().exec("CREATE TEMP TABLE IF NOT EXISTS verify_sel_ids(id INTEGER PRIMARY KEY)");
    corpus.db().exec("DELETE FROM verify_sel_tasks; DELETE FROM verify_sel_ids");
    for (const auto &t : sel.tasks)
        corpus.db().prepare("INSERT OR IGNORE INTO verify_sel_tasks(name) VALUES(?1)").bind(1, t).run();
    for (auto id : sel.ids)
        corpus.db().prepare("INSERT OR IGNORE INTO verify_sel_ids(id) VALUES(?1)").bind(1, id).run();
    if (!sel.tasks.empty())
        sql += " AND t.name IN (SELECT name FROM verify_sel_tasks)";
    if (!sel.ids.empty())
        sql += " AND s.id IN (SELECT id FROM verify_sel_ids)";
    sql += " ORDER BY s.task_id, s.id";
    if (sel.limit) {
        const std::int64_t left = std::max<std::int64_t>(0, *sel.limit - static_cast<std::int64_t>(alreadyDone));
        sql += " LIMIT " + std::to_string(left);
    }
    db::Statement st = corpus.db().prepare(sql);
    st.bind(1, runId);
    std::vector<SampleRef> out;
    while (st.step())
        out.push_back({st.int64(0), st.int64(1)});
    return out;
}

std::map<std::string, std::uint64_t> runStatusCounts(Corpus &corpus, std::int64_t runId)
{
    std::map<std::string, std::uint64_t> m;
    db::Statement st = corpus.db().prepare("SELECT status, count(*) FROM verdicts WHERE run_id=?1 GROUP BY status");
    st.bind(1, runId);
    while (st.step())
        m[st.text(0)] = static_cast<std::uint64_t>(st.int64(1));
    return m;
}

} // namespace sieve::gpu
