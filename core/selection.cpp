#include "selection.h"

#include "database.h"
#include "samplepreference.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
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

Quota parseQuota(const std::string &text)
{
    const auto eq = text.find('=');
    const auto colon = text.rfind(':');
    if (eq == std::string::npos || colon == std::string::npos || colon < eq)
        throw std::invalid_argument("quota '" + text + "' is not FIELD=VALUE:N (e.g. category=softmax:50)");
    Quota q;
    q.field = text.substr(0, eq);
    q.value = text.substr(eq + 1, colon - eq - 1);
    if (q.field != "category" && q.field != "level")
        throw std::invalid_argument("quota '" + text + "': the field is 'category' or 'level'");
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

struct Candidate {
    SelectedSample s;
    bool hasAnswer = false;
    std::optional<std::int64_t> clusterId;
    std::optional<std::int64_t> representativeId;
};

// Better first: the shared sample preference order (core/samplepreference.h), also the dedup's
// representative rule, so that selection's stand-in for an ineligible representative is the next one the
// dedup would have picked.
bool better(const SelectedSample &a, const SelectedSample &b)
{
    return preferredSample({a.sampleId, a.review, a.status, a.speedup, a.attempt},
                           {b.sampleId, b.review, b.status, b.speedup, b.attempt});
}

std::string levelText(const std::optional<std::int64_t> &level) { return level ? std::to_string(*level) : "(none)"; }

} // namespace

Selection selectSamples(const db::Database &db, const SelectionOptions &options)
{
    Selection out;
    std::unordered_map<std::int64_t, Difficulty> difficulty;
    for (const TaskDifficulty &t : taskDifficulties(db))
        difficulty[t.taskId] = t.difficulty;

    db::Statement st = db.prepare(
        "SELECT s.id, s.name, s.sample_key, s.task_id, s.model, s.attempt, s.speedup, s.status, s.review, "
        "s.has_answer, s.cluster_id, c.representative_id, t.name, t.level, t.category, t.backend, t.target, t.dtype "
        "FROM samples s JOIN tasks t ON t.id = s.task_id LEFT JOIN clusters c ON c.id = s.cluster_id ORDER BY s.id");
    std::vector<SelectedSample> eligible;
    std::map<std::int64_t, std::vector<SelectedSample>> byCluster;
    std::map<std::int64_t, std::int64_t> representative;
    auto optText = [&](int col) { return st.isNull(col) ? std::optional<std::string>() : st.text(col); };
    while (st.step()) {
        ++out.candidates;
        SelectedSample s;
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
        s.difficulty = difficulty.count(s.taskId) ? difficulty[s.taskId] : Difficulty::Unknown;
        if (s.review == "rejected") {
            ++out.excluded["rejected"];
            continue;
        }
        if (st.int64(9) == 0) {
            ++out.excluded["no answer"];
            continue;
        }
        const bool passed = isPassStatus(s.status), accepted = s.review == "accepted";
        const bool ok = options.require == RequirePolicy::Passed     ? passed
                        : options.require == RequirePolicy::Accepted ? accepted
                                                                     : passed && accepted;
        if (!ok) {
            ++out.excluded["policy"];
            continue;
        }
        const auto cluster = st.optInt64(10);
        if (options.onePerCluster && cluster) {
            if (const auto rep = st.optInt64(11))
                representative[*cluster] = *rep;
            byCluster[*cluster].push_back(std::move(s));
        } else {
            eligible.push_back(std::move(s));
        }
    }
    // 2. One per cluster.
    for (auto &[clusterId, members] : byCluster) {
        const auto rep = representative.find(clusterId);
        auto chosen = members.end();
        if (rep != representative.end())
            chosen = std::find_if(members.begin(), members.end(),
                                  [&](const SelectedSample &m) { return m.sampleId == rep->second; });
        if (chosen == members.end())
            chosen = std::min_element(members.begin(), members.end(), better);
        out.excluded["cluster duplicate"] += static_cast<std::int64_t>(members.size()) - 1;
        eligible.push_back(std::move(*chosen));
    }
    // 3. Per-task cap, by preference.
    std::map<std::int64_t, std::vector<SelectedSample>> byTask;
    for (SelectedSample &s : eligible)
        byTask[s.taskId].push_back(std::move(s));
    for (auto &[taskId, list] : byTask) {
        std::sort(list.begin(), list.end(), better);
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
            const SelectedSample &first = byTask[id].front();
            std::vector<std::pair<std::size_t, std::string>> keys;
            bool room = true;
            for (std::size_t q = 0; q < options.quotas.size(); ++q) {
                const Quota &quota = options.quotas[q];
                const std::string value =
                    quota.field == "category" ? first.category.value_or("(none)") : levelText(first.level);
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
    for (std::int64_t id : tasks)
        for (SelectedSample &s : byTask[id])
            out.samples.push_back(std::move(s));
    std::sort(out.samples.begin(), out.samples.end(), [](const SelectedSample &a, const SelectedSample &b) {
        return a.taskName != b.taskName ? a.taskName < b.taskName : a.sampleId < b.sampleId;
    });
    return out;
}

nlohmann::json selectionSummary(const Selection &s)
{
    using json = nlohmann::json;
    json j;
    std::set<std::int64_t> tasks;
    std::map<std::string, std::set<std::int64_t>> taskSets[5];
    std::map<std::string, std::int64_t> sampleCounts[5];
    const char *names[5] = {"by_difficulty", "by_level", "by_category", "by_backend", "by_model"};
    for (const SelectedSample &x : s.samples) {
        tasks.insert(x.taskId);
        const std::string keys[5] = {difficultyName(x.difficulty), levelText(x.level), x.category.value_or("(none)"),
                                     x.backend, x.model.value_or("(none)")};
        for (int i = 0; i < 5; ++i) {
            taskSets[i][keys[i]].insert(x.taskId);
            ++sampleCounts[i][keys[i]];
        }
    }
    j["tasks"] = tasks.size();
    j["samples"] = s.samples.size();
    j["candidates"] = s.candidates;
    for (int i = 0; i < 5; ++i) {
        json part = json::object();
        for (const auto &[key, set] : taskSets[i])
            part[key] = {{"tasks", set.size()}, {"samples", sampleCounts[i][key]}};
        j[names[i]] = std::move(part);
    }
    j["excluded"] = s.excluded;
    return j;
}

} // namespace sieve
