#include "gpu/verify/verifyrun.h"

#include "core/db/corpus.h"
#include "core/db/unixtime.h"
#include "core/store/verifyrunstore.h"

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
    const auto row = store::latestUnfinishedRun(corpus.db());
    if (!row)
        return std::nullopt;
    RunRow r;
    r.id = row->id;
    r.state = row->state;
    r.mode = row->mode;
    r.params = !row->paramsJson ? nlohmann::json::object() : nlohmann::json::parse(*row->paramsJson, nullptr, false);
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
    if (o.skipStatic)
        p["skip_static"] = true; // a measurement run (verify --skip-static); a resumed run keeps it
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
    nlohmann::json env = {{"sieve_version", SIEVE_VERSION},
                          {"engine_version", kEngineVersion},
                          {"mode", runMode(o)},
                          {"fp32_precision", o.fp32Precision},
                          {"policy", o.policy}};
    if (o.skipStatic)
        env["skip_static"] = true;
    if (o.extraEnv.is_object())
        env.update(o.extraEnv);
    return store::insertVerifyRun(corpus.db(), unixNow(), runMode(o), env.dump(), runParams(o).dump(),
                                  std::string(SIEVE_VERSION), std::string("engine ") + kEngineVersion);
}

void setRunState(Corpus &corpus, std::int64_t runId, const std::string &state)
{
    const bool final = state == "finished" || state == "failed";
    store::setVerifyRunState(corpus.db(), runId, state, final ? std::optional<std::int64_t>(unixNow()) : std::nullopt);
}

std::vector<SampleRef> pendingSamples(Corpus &corpus, const SampleSelection &sel, std::int64_t runId,
                                      std::uint64_t &alreadyDone)
{
    alreadyDone = store::runVerdictCount(corpus.db(), runId);
    std::optional<std::int64_t> left;
    if (sel.limit)
        left = std::max<std::int64_t>(0, *sel.limit - static_cast<std::int64_t>(alreadyDone));
    return store::samplesWithoutVerdict(corpus.db(), runId, sel.all, sel.tasks, sel.ids, left);
}

std::map<std::string, std::uint64_t> runStatusCounts(Corpus &corpus, std::int64_t runId)
{
    return store::runStatusCounts(corpus.db(), runId);
}

} // namespace sieve::gpu
