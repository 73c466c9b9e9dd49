#include "core/select/selection.h"

#include "core/db/corpusfile.h"
#include "core/db/database.h"
#include "core/select/samplepreference.h"
#include "core/store/teacherstore.h"
#include "core/store/verdictstore.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <future>
#include <set>
#include <stdexcept>
#include <unordered_map>

namespace sieve {

const char *requireName(RequirePolicy p)
{
    switch (p) {
    case RequirePolicy::Passed:
        return "passed";
    case RequirePolicy::Accepted:
        return "accepted";
    case RequirePolicy::PassedAndAccepted:
        return "passed-and-accepted";
    }
    return "passed";
}

std::optional<RequirePolicy> parseRequire(std::string_view name)
{
    for (RequirePolicy p : {RequirePolicy::Passed, RequirePolicy::Accepted, RequirePolicy::PassedAndAccepted})
        if (name == requireName(p))
            return p;
    return std::nullopt;
}

const char *judgeFilterName(JudgeFilter f)
{
    switch (f) {
    case JudgeFilter::None:
        return "none";
    case JudgeFilter::Require:
        return "require";
    case JudgeFilter::Exclude:
        return "exclude";
    }
    return "none";
}

std::optional<JudgeFilter> parseJudgeFilter(std::string_view name)
{
    for (JudgeFilter f : {JudgeFilter::None, JudgeFilter::Require, JudgeFilter::Exclude})
        if (name == judgeFilterName(f))
            return f;
    return std::nullopt;
}

Quota parseQuota(const std::string &text)
{
    const auto eq = text.find('=');
    const auto colon = text.rfind(':');
    if (eq == std::string::npos || colon == std::string::npos || colon < eq)
        throw std::invalid_argument("quota '" + text + "' is not FIELD=VALUE:N (e.g. category=softmax:50)");
    Quota q;
    q.field = text.substr(0, eq);
    q.value = text.substr(eq + 1, colon - eq - 1);
    if (q.field != "category" && q.field != "level" && q.field != "backend")
        throw std::invalid_argument("quota '" + text + "': the field is 'category', 'level' or 'backend'");
    try {
        std::size_t used = 0;
        q.maxTasks = std::stoi(text.substr(colon + 1), &used);
        if (used != text.size() - colon - 1 || q.maxTasks < 0)
            throw std::invalid_argument("");
    } catch (const std::exception &) {
        throw std::invalid_argument("quota '" + text + "': N must be a whole number >= 0");
    }
    if (q.value.empty())
        throw std::invalid_argument("quota '" + text + "': empty value (use * for every value)");
    return q;
}

std::size_t uniformIndex(std::mt19937_64 &rng, std::size_t n)
{
    // Lemire's multiply-shift: the same on every platform, unlike std::uniform_int_distribution.
    __extension__ typedef unsigned __int128 u128;
    const u128 product = static_cast<u128>(rng()) * n;
    return static_cast<std::size_t>(product >> 64);
}

namespace {

struct Candidate
{
    SelectedSample s;
    bool hasAnswer = false;
    std::optional<std::int64_t> clusterId;
    std::optional<std::int64_t> representativeId;
};

// Better first: the shared sample preference order (core/select/samplepreference.h), also the dedup's
// representative rule, so that selection's stand-in for an ineligible representative is the next one the
// dedup would have picked.
bool better(const SelectedSample &a, const SelectedSample &b)
{
    return preferredSample({a.sampleId, a.review, a.status, a.speedup, a.attempt},
                           {b.sampleId, b.review, b.status, b.speedup, b.attempt});
}

std::string levelText(const std::optional<std::int64_t> &level)
{
    return level ? std::to_string(*level) : "(none)";
}

} // namespace

bool preferredInSelection(const SelectedSample &a, const SelectedSample &b)
{
    return better(a, b);
}

std::map<std::int64_t, VerdictTiming> newestVerdictTimings(const db::Database &db)
{
    std::map<std::int64_t, VerdictTiming> out;
    db::Statement st =
        db.prepare("SELECT sample_id, candidate_ms, eager_ms, compile_ms, speedup, interpreted FROM verdicts "
                   "WHERE id IN (SELECT max(id) FROM verdicts GROUP BY sample_id)");
    while (st.step()) {
        if (st.int64(5) != 0)
            continue; // the CPU interpreter times nothing worth a bar
        const auto cand = st.optReal(1), eager = st.optReal(2), compile = st.optReal(3), speedup = st.optReal(4);
        VerdictTiming t;
        if (cand && *cand > 0 && eager && *eager > 0)
            t.eager = *eager / *cand;
        else if (speedup && *speedup > 0)
            t.eager = speedup;
        if (cand && *cand > 0 && compile && *compile > 0)
            t.compile = *compile / *cand;
        if (t.eager || t.compile)
            out[st.int64(0)] = t;
    }
    return out;
}

std::set<std::int64_t> samplesWithFlag(const db::Database &db, const std::string &flag)
{
    std::set<std::int64_t> out;
    db::Statement st = db.prepare("SELECT sample_id FROM verdicts WHERE id IN (SELECT max(id) FROM verdicts GROUP "
                                  "BY sample_id) AND ',' || flags || ',' LIKE ?1");
    st.bind(1, "%," + flag + ",%");
    while (st.step())
        out.insert(st.int64(0));
    return out;
}

std::set<std::int64_t> staticSkippedSamples(const db::Database &db)
{
    return samplesWithFlag(db, store::kStaticSkippedFlag);
}

bool isFlagName(std::string_view flag)
{
    return !flag.empty() && std::all_of(flag.begin(), flag.end(), [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    });
}

Selection selectSamples(const db::Database &db, const SelectionOptions &options)
{
    Selection out;
    // Difficulties (a sort of every sample by task and attempt) on a second read-only connection
    // while this one reads the samples, when the corpus is a file: a third of the selection's time.
    std::future<std::vector<TaskDifficulty>> difficulties;
    if (const std::string &path = db.path(); !path.empty() && path != ":memory:" && std::filesystem::exists(path))
        difficulties = std::async(std::launch::async, [path, scope = options.difficultyScope] {
            return taskDifficulties(corpusfile::openForReading(path), scope);
        });

    db::Statement st = db.prepare(
        "SELECT s.id, s.name, s.sample_key, s.task_id, s.model, s.attempt, s.speedup, s.status, s.review, "
        "s.has_answer, s.cluster_id, c.representative_id, t.name, t.level, t.category, t.backend, t.target, t.dtype, "
        "s.backend "
        "FROM samples s JOIN tasks t ON t.id = s.task_id LEFT JOIN clusters c ON c.id = s.cluster_id ORDER BY s.id");
    // The samples that pass the policy live in `pool` and are handled by index from there on: each is
    // moved once, into the result (moving them through every step was a third of the selection's time
    // on 100,000 samples).
    std::vector<SelectedSample> pool;
    pool.reserve(static_cast<std::size_t>(db.queryInt("SELECT count(*) FROM samples").value_or(0)));
    auto prefer = [&](std::size_t a, std::size_t b) { return better(pool[a], pool[b]); };
    std::vector<std::size_t> eligible;
    std::map<std::int64_t, std::vector<std::size_t>> byCluster;
    std::map<std::int64_t, std::int64_t> representative;
    auto optText = [&](int col) { return st.isNull(col) ? std::optional<std::string>() : st.text(col); };
    const bool speedBar = options.minSpeedup || options.minSpeedupCompile;
    const std::map<std::int64_t, VerdictTiming> timings =
        speedBar ? newestVerdictTimings(db) : std::map<std::int64_t, VerdictTiming>();
    const std::set<std::int64_t> skipped =
        options.includeSkipStatic ? std::set<std::int64_t>() : staticSkippedSamples(db);
    std::map<std::int64_t, std::string> flagged; // sample -> the first of excludeFlags its newest verdict has
    for (auto f = options.excludeFlags.rbegin(); f != options.excludeFlags.rend(); ++f)
        for (std::int64_t id : samplesWithFlag(db, *f))
            flagged[id] = *f;
    const std::set<std::int64_t> judgeKeeps =
        options.judge == JudgeFilter::Require ? store::judgeImplements(db) : std::set<std::int64_t>();
    const std::set<std::int64_t> judgeDrops =
        options.judge == JudgeFilter::Exclude ? store::judgeFlagged(db) : std::set<std::int64_t>();
    while (st.step()) {
        ++out.candidates;
        const std::string_view review = st.textView(8);
        if (review == "rejected") {
            ++out.excluded["rejected"];
            continue;
        }
        if (st.int64(9) == 0) {
            ++out.excluded["no answer"];
            continue;
        }
        const bool skippedPass = isPassStatus(st.textView(7)) && skipped.count(st.int64(0));
        const bool passed = isPassStatus(st.textView(7)) && !skippedPass, accepted = review == "accepted";
        const bool ok = options.require == RequirePolicy::Passed     ? passed
                        : options.require == RequirePolicy::Accepted ? accepted
                                                                     : passed && accepted;
        if (!ok) {
            ++out.excluded[skippedPass && options.require != RequirePolicy::Accepted ? "static skipped" : "policy"];
            continue;
        }
        if (const auto f = flagged.find(st.int64(0)); f != flagged.end()) {
            ++out.excluded["flag " + f->second];
            continue;
        }
        if (options.judge == JudgeFilter::Require && !judgeKeeps.count(st.int64(0))) {
            ++out.excluded["judge: not implements"];
            continue;
        }
        if (options.judge == JudgeFilter::Exclude && judgeDrops.count(st.int64(0))) {
            ++out.excluded["judge: flagged"];
            continue;
        }
        if (speedBar) {
            const auto t = timings.find(st.int64(0));
            const bool timed = t != timings.end() && (!options.minSpeedup || t->second.eager) &&
                               (!options.minSpeedupCompile || t->second.compile);
            if (!timed) {
                ++out.excluded["no timing"];
                continue;
            }
            if ((options.minSpeedup && *t->second.eager < *options.minSpeedup) ||
                (options.minSpeedupCompile && *t->second.compile < *options.minSpeedupCompile)) {
                ++out.excluded["below speedup"];
                continue;
            }
        }
        SelectedSample &s = pool.emplace_back();
        s.sampleId = st.int64(0);
        s.sampleName = st.text(1);
        s.sampleKey = st.text(2);
        s.taskId = st.int64(3);
        s.model = optText(4);
        s.attempt = st.optInt64(5);
        s.speedup = st.optReal(6);
        s.status = st.text(7);
        s.review = st.text(8);
        s.taskName = st.text(12);
        s.level = st.optInt64(13);
        s.category = optText(14);
        s.backend = st.text(15);
        s.target = optText(16);
        s.dtype = st.text(17);
        s.answerBackend = st.text(18);
        const std::size_t index = pool.size() - 1;
        const auto cluster = st.optInt64(10);
        if (options.onePerCluster && cluster) {
            if (const auto rep = st.optInt64(11))
                representative[*cluster] = *rep;
            byCluster[*cluster].push_back(index);
        } else {
            eligible.push_back(index);
        }
    }
    std::unordered_map<std::int64_t, Difficulty> difficulty;
    for (const TaskDifficulty &t :
         difficulties.valid() ? difficulties.get() : taskDifficulties(db, options.difficultyScope))
        difficulty[t.taskId] = t.difficulty;
    for (SelectedSample &s : pool) {
        const auto d = difficulty.find(s.taskId);
        s.difficulty = d != difficulty.end() ? d->second : Difficulty::Unknown;
    }
    // 2. One per cluster.
    for (const auto &[clusterId, members] : byCluster) {
        const auto rep = representative.find(clusterId);
        auto chosen = members.end();
        if (rep != representative.end())
            chosen = std::find_if(members.begin(), members.end(),
                                  [&](std::size_t m) { return pool[m].sampleId == rep->second; });
        if (chosen == members.end())
            chosen = std::min_element(members.begin(), members.end(), prefer);
        out.excluded["cluster duplicate"] += static_cast<std::int64_t>(members.size()) - 1;
        eligible.push_back(*chosen);
    }
    // 3. Per-task cap, by preference.
    std::map<std::int64_t, std::vector<std::size_t>> byTask;
    for (std::size_t i : eligible)
        byTask[pool[i].taskId].push_back(i);
    for (auto &[taskId, list] : byTask) {
        std::sort(list.begin(), list.end(), prefer);
        if (options.maxPerTask > 0 && static_cast<int>(list.size()) > options.maxPerTask) {
            out.excluded["per-task cap"] += static_cast<std::int64_t>(list.size()) - options.maxPerTask;
            list.resize(static_cast<std::size_t>(options.maxPerTask));
        }
    }
    std::mt19937_64 rng(options.seed);
    std::vector<std::int64_t> tasks; // ascending id: the stable order before any draw
    for (const auto &[taskId, list] : byTask)
        tasks.push_back(taskId);
    auto drop = [&](std::int64_t taskId, const char *reason) {
        out.excluded[reason] += static_cast<std::int64_t>(byTask[taskId].size());
        byTask.erase(taskId);
    };
    // 4. All hard tasks plus a random draw of easy ones.
    if (options.easyCount || options.easyFraction) {
        std::vector<std::int64_t> easy, keep;
        for (std::int64_t id : tasks) {
            const Difficulty d = difficulty[id];
            if (d == Difficulty::Hard)
                keep.push_back(id);
            else if (d == Difficulty::Easy)
                easy.push_back(id);
            else
                drop(id, "difficulty");
        }
        std::size_t want = options.easyCount
                               ? static_cast<std::size_t>(std::max(0, *options.easyCount))
                               : static_cast<std::size_t>(std::llround(*options.easyFraction * double(easy.size())));
        want = std::min(want, easy.size());
        seededShuffle(easy, rng);
        for (std::size_t i = 0; i < easy.size(); ++i) {
            if (i < want)
                keep.push_back(easy[i]);
            else
                drop(easy[i], "difficulty");
        }
        std::sort(keep.begin(), keep.end());
        tasks = std::move(keep);
    }
    // 5. Quotas over tasks, in a seeded order.
    if (!options.quotas.empty()) {
        std::vector<std::int64_t> order = tasks;
        seededShuffle(order, rng);
        std::map<std::pair<std::size_t, std::string>, int> used;
        std::vector<std::int64_t> keep;
        for (std::int64_t id : order) {
            const SelectedSample &first = pool[byTask[id].front()];
            std::vector<std::pair<std::size_t, std::string>> keys;
            bool room = true;
            for (std::size_t q = 0; q < options.quotas.size(); ++q) {
                const Quota &quota = options.quotas[q];
                const std::string value = quota.field == "category"  ? first.category.value_or("(none)")
                                          : quota.field == "backend" ? first.backend
                                                                     : levelText(first.level);
                if (quota.value != "*" && quota.value != value)
                    continue;
                keys.emplace_back(q, value);
                if (used[keys.back()] >= quota.maxTasks)
                    room = false;
            }
            if (!room) {
                drop(id, "quota");
                continue;
            }
            for (const auto &k : keys)
                ++used[k];
            keep.push_back(id);
        }
        std::sort(keep.begin(), keep.end());
        tasks = std::move(keep);
    }
    // By task name, then sample id: tasks are ranked by name once (equal names, equal rank), so the
    // sort compares numbers.
    std::vector<std::pair<std::string_view, std::int64_t>> names;
    names.reserve(tasks.size());
    for (std::int64_t id : tasks)
        names.emplace_back(pool[byTask[id].front()].taskName, id);
    std::sort(names.begin(), names.end());
    std::unordered_map<std::int64_t, std::size_t> rank;
    for (std::size_t i = 0, r = 0; i < names.size(); ++i) {
        if (i > 0 && names[i].first != names[i - 1].first)
            ++r;
        rank[names[i].second] = r;
    }
    struct Key
    {
        std::size_t rank;
        std::int64_t sampleId;
        std::size_t index;
        bool operator<(const Key &o) const { return rank != o.rank ? rank < o.rank : sampleId < o.sampleId; }
    };
    std::vector<Key> order;
    for (std::int64_t id : tasks)
        for (std::size_t i : byTask[id])
            order.push_back({rank[id], pool[i].sampleId, i});
    std::sort(order.begin(), order.end());
    out.samples.reserve(order.size());
    for (const Key &k : order)
        out.samples.push_back(std::move(pool[k.index]));
    return out;
}

nlohmann::json selectionSummary(const Selection &s)
{
    using json = nlohmann::json;
    json j;
    struct Part
    {
        std::set<std::int64_t> tasks;
        std::int64_t samples = 0;
        std::int64_t lastTask = -1;
    };
    std::set<std::int64_t> tasks;
    std::map<std::string, Part> parts[5];
    const char *names[5] = {"by_difficulty", "by_level", "by_category", "by_backend", "by_model"};
    // Difficulty, level, category and backend are the task's: looked up once per run of a task's
    // samples (they come together); the model is the sample's. The sets still count a task once
    // if they did not come together.
    std::int64_t lastTask = -1;
    Part *current[4] = {};
    for (const SelectedSample &x : s.samples) {
        if (x.taskId != lastTask) {
            lastTask = x.taskId;
            tasks.insert(x.taskId);
            const std::string keys[4] = {difficultyName(x.difficulty), levelText(x.level),
                                         x.category.value_or("(none)"), x.backend};
            for (int i = 0; i < 4; ++i) {
                current[i] = &parts[i][keys[i]];
                current[i]->tasks.insert(x.taskId);
            }
        }
        for (Part *p : current)
            ++p->samples;
        Part &m = parts[4][x.model.value_or("(none)")];
        if (m.lastTask != x.taskId) {
            m.lastTask = x.taskId;
            m.tasks.insert(x.taskId);
        }
        ++m.samples;
    }
    j["tasks"] = tasks.size();
    j["samples"] = s.samples.size();
    j["candidates"] = s.candidates;
    for (int i = 0; i < 5; ++i) {
        json part = json::object();
        for (const auto &[key, p] : parts[i])
            part[key] = {{"tasks", p.tasks.size()}, {"samples", p.samples}};
        j[names[i]] = std::move(part);
    }
    j["excluded"] = s.excluded;
    return j;
}

} // namespace sieve
