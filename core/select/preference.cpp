#include "core/select/preference.h"

#include "core/db/database.h"

#include <algorithm>
#include <set>
#include <unordered_map>

namespace sieve {

namespace {

std::vector<std::string> splitReasons(std::string_view text)
{
    std::vector<std::string> out;
    std::string item;
    for (char ch : text) {
        if (ch == ',' || ch == ' ' || ch == ';' || ch == '[' || ch == ']' || ch == '"') {
            if (!item.empty())
                out.push_back(std::move(item));
            item.clear();
        } else {
            item += ch;
        }
    }
    if (!item.empty())
        out.push_back(std::move(item));
    return out;
}

bool hostileReason(const std::string &r)
{
    return r.rfind("PATCHES_", 0) == 0 || r.rfind("FORBIDDEN_", 0) == 0 || r == "DYNAMIC_CODE" ||
           r == "INCLUDE_FORBIDDEN";
}

int classRank(const std::string &c)
{
    return c == "compiled" ? 0 : c == "static" ? 1 : c == "compile" ? 2 : 3;
}

} // namespace

std::string negativeClass(std::string_view status, const std::vector<std::string> &reasons)
{
    if (status == "FAIL_MISMATCH" || status == "FAIL_RUNTIME")
        return "compiled";
    if (status == "FAIL_COMPILE" || status == "TIMEOUT")
        return "compile";
    if (status == "FAIL_SANDBOX" || status == "FAIL_SHAM")
        return "hostile";
    if (status == "FAIL_STATIC") {
        if (reasons.empty() || std::any_of(reasons.begin(), reasons.end(), hostileReason))
            return "hostile";
        return "static";
    }
    return {};
}

Pairs selectPairs(const db::Database &db, const SelectionOptions &selection, const PairOptions &options)
{
    Pairs out;
    out.selection = selectSamples(db, selection);
    const std::vector<SelectedSample> &chosen = out.selection.samples;
    // The chosen samples per task (in the selection's order: by task name, then id), and their code.
    std::map<std::int64_t, std::vector<std::size_t>> chosenByTask;
    std::vector<std::int64_t> taskOrder;
    for (std::size_t i = 0; i < chosen.size(); ++i) {
        auto &list = chosenByTask[chosen[i].taskId];
        if (list.empty())
            taskOrder.push_back(chosen[i].taskId);
        list.push_back(i);
    }
    // Chosen answers best first (the selection's preference order), so pair 0 has the best one.
    std::unordered_map<std::int64_t, const SelectedSample *> byId;
    for (const SelectedSample &s : chosen)
        byId[s.sampleId] = &s;
    std::set<std::pair<std::int64_t, std::string>> chosenCode; // (task, code_hash)
    {
        db::Statement st = db.prepare("SELECT id, task_id, code_hash FROM samples WHERE code_hash IS NOT NULL");
        while (st.step())
            if (byId.count(st.int64(0)))
                chosenCode.emplace(st.int64(1), st.text(2));
    }
    std::unordered_map<std::int64_t, std::string> reasons; // newest verdict's reasons
    {
        db::Statement st = db.prepare("SELECT sample_id, reasons FROM verdicts WHERE id IN "
                                      "(SELECT max(id) FROM verdicts GROUP BY sample_id)");
        while (st.step())
            if (!st.isNull(1))
                reasons[st.int64(0)] = st.text(1);
    }
    std::map<std::int64_t, std::vector<RejectedSample>> negatives;
    {
        db::Statement st = db.prepare(
            "SELECT s.id, s.name, s.sample_key, s.task_id, s.model, s.attempt, s.status, s.review, s.has_answer, "
            "s.cluster_id, s.code_hash, s.backend FROM samples s WHERE s.status NOT IN "
            "('PASS','PENDING','CANCELLED','UNVERIFIABLE') ORDER BY s.id");
        std::set<std::int64_t> clustersUsed;
        while (st.step()) {
            const std::int64_t taskId = st.int64(3);
            const auto task = chosenByTask.find(taskId);
            if (task == chosenByTask.end())
                continue; // no chosen answer for this task: no pair either
            const std::int64_t id = st.int64(0);
            const std::string status = st.text(6);
            const auto r = reasons.find(id);
            const std::string cls =
                negativeClass(status, r != reasons.end() ? splitReasons(r->second) : std::vector<std::string>());
            auto skip = [&](const char *why) { ++out.excludedNegatives[why]; };
            if (cls.empty()) {
                skip(status == "CRASH" ? "crash" : "not a failure of the sample");
                continue;
            }
            if (cls == "hostile" && !options.keepHostile) {
                skip("hostile");
                continue;
            }
            if (st.int64(8) == 0) {
                skip("no answer");
                continue;
            }
            if (st.textView(7) == "accepted") {
                skip("accepted");
                continue;
            }
            if (!st.isNull(10) && chosenCode.count({taskId, st.text(10)})) {
                skip("same code as a chosen sample");
                continue;
            }
            if (selection.onePerCluster && !st.isNull(9) && !clustersUsed.insert(st.int64(9)).second) {
                skip("cluster duplicate");
                continue;
            }
            const SelectedSample &first = chosen[task->second.front()];
            RejectedSample n;
            n.sample = first; // the task's fields
            n.sample.sampleId = id;
            n.sample.sampleName = st.text(1);
            n.sample.sampleKey = st.text(2);
            n.sample.model = st.isNull(4) ? std::optional<std::string>() : st.text(4);
            n.sample.attempt = st.optInt64(5);
            n.sample.speedup.reset();
            n.sample.status = status;
            n.sample.review = st.text(7);
            n.sample.answerBackend = st.text(11);
            n.negativeClass = cls;
            negatives[taskId].push_back(std::move(n));
        }
    }
    // Per task and answer backend (a CUDA answer is paired with a CUDA failure, under the CUDA prompt).
    for (std::int64_t taskId : taskOrder) {
        std::map<std::string, std::vector<std::size_t>> chosenByBackend;
        for (std::size_t i : chosenByTask[taskId])
            chosenByBackend[chosen[i].answerBackend].push_back(i);
        std::map<std::string, std::vector<RejectedSample>> negByBackend;
        if (auto it = negatives.find(taskId); it != negatives.end())
            for (RejectedSample &n : it->second) {
                if (!chosenByBackend.count(n.sample.answerBackend)) {
                    ++out.excludedNegatives["no chosen answer in its backend"];
                    continue;
                }
                negByBackend[n.sample.answerBackend].push_back(std::move(n));
            }
        bool any = false;
        for (auto &[backend, c] : chosenByBackend) {
            std::sort(c.begin(), c.end(),
                      [&](std::size_t a, std::size_t b) { return preferredInSelection(chosen[a], chosen[b]); });
            std::vector<RejectedSample> &r = negByBackend[backend];
            if (r.empty())
                continue;
            any = true;
            std::stable_sort(r.begin(), r.end(), [](const RejectedSample &a, const RejectedSample &b) {
                const int ra = classRank(a.negativeClass), rb = classRank(b.negativeClass);
                if (ra != rb)
                    return ra < rb;
                if (a.sample.attempt.has_value() != b.sample.attempt.has_value())
                    return a.sample.attempt.has_value();
                if (a.sample.attempt != b.sample.attempt)
                    return *a.sample.attempt < *b.sample.attempt;
                return a.sample.sampleId < b.sample.sampleId;
            });
            std::size_t n = std::max(c.size(), r.size());
            if (options.maxPairsPerTask > 0)
                n = std::min(n, static_cast<std::size_t>(options.maxPairsPerTask));
            const std::size_t used = std::min(n, r.size());
            if (r.size() > used)
                out.excludedNegatives["pair cap"] += static_cast<std::int64_t>(r.size() - used);
            const std::size_t base = out.rejected.size();
            for (std::size_t k = 0; k < used; ++k)
                out.rejected.push_back(std::move(r[k]));
            for (std::size_t i = 0; i < n; ++i) {
                out.pairs.push_back({c[i % c.size()], base + i % used});
                ++out.pairsByClass[out.rejected[base + i % used].negativeClass];
            }
        }
        if (!any)
            ++out.tasksWithoutNegative;
    }
    return out;
}

} // namespace sieve
