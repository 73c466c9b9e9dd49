#include "core/select/stats.h"

#include "core/db/corpus.h"
#include "core/select/difficulty.h"
#include "core/store/samplerow.h"
#include "core/tasks/augment.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>

namespace sieve {

namespace {
nlohmann::json countBy(const db::Database &db, const std::string &sql)
{
    nlohmann::json out = nlohmann::json::object();
    db::Statement st = db.prepare(sql);
    while (st.step())
        out[st.isNull(0) ? std::string("(none)") : st.text(0)] = st.int64(1);
    return out;
}

const int kPassK[] = {1, 5, 10};
const double kFastP[] = {0, 0.5, 0.8, 1, 1.5, 2};

using store::SampleRow;

std::vector<std::string> parseReasons(const std::string &text)
{
    std::vector<std::string> out;
    if (text.empty())
        return out;
    if (text.front() == '[') {
        const auto j = nlohmann::json::parse(text, nullptr, false);
        if (j.is_array()) {
            for (const auto &r : j)
                if (r.is_string())
                    out.push_back(r.get<std::string>());
            return out;
        }
    }
    std::string item;
    for (char ch : text + ",") {
        if (ch == ',' || ch == ' ' || ch == ';') {
            if (!item.empty())
                out.push_back(item);
            item.clear();
        } else {
            item += ch;
        }
    }
    return out;
}

std::string fastKey(double p)
{
    std::ostringstream ss;
    ss << p;
    return ss.str();
}

// Metrics over a set of samples (grouped by task inside).
nlohmann::json metrics(const std::vector<const SampleRow *> &rows)
{
    struct PerTask
    {
        int n = 0, c = 0;
        double best = -1; // best speedup of a passing sample; 0 when passing without a speedup
    };
    std::map<std::int64_t, PerTask> tasks;
    std::map<std::string, std::int64_t> byStatus, byReason;
    double logSum = 0;
    std::int64_t withSpeedup = 0, samples = 0, verified = 0, passed = 0;
    for (const SampleRow *r : rows) {
        ++samples;
        PerTask &t = tasks[r->taskId];
        if (isUnverifiedStatus(r->status))
            continue;
        ++verified;
        ++t.n;
        if (isPassStatus(r->status)) {
            ++passed;
            ++t.c;
            t.best = std::max(t.best, r->speedup.value_or(0.0));
            if (r->speedup && *r->speedup > 0) {
                logSum += std::log(*r->speedup);
                ++withSpeedup;
            }
        } else {
            ++byStatus[r->status];
            for (const std::string &reason : r->reasons)
                ++byReason[reason];
        }
    }
    nlohmann::json j;
    j["tasks"] = tasks.size();
    j["samples"] = samples;
    j["verified"] = verified;
    j["passed"] = passed;
    std::int64_t tasksVerified = 0;
    for (const auto &[id, t] : tasks)
        tasksVerified += t.n > 0;
    j["tasks_verified"] = tasksVerified;
    nlohmann::json passK = nlohmann::json::object();
    for (int k : kPassK) {
        double sum = 0;
        for (const auto &[id, t] : tasks)
            if (t.n > 0)
                sum += passAtK(t.n, t.c, k);
        passK[std::to_string(k)] = tasksVerified ? nlohmann::json(sum / double(tasksVerified)) : nlohmann::json();
    }
    j["pass_at_k"] = std::move(passK);
    nlohmann::json fast = nlohmann::json::object();
    for (double p : kFastP) {
        std::int64_t hits = 0;
        for (const auto &[id, t] : tasks)
            if (t.c > 0 && (p == 0 || t.best > p))
                ++hits;
        fast[fastKey(p)] = tasks.empty() ? nlohmann::json() : nlohmann::json(double(hits) / double(tasks.size()));
    }
    j["fast_p"] = std::move(fast);
    j["geomean_speedup"] = withSpeedup ? nlohmann::json(std::exp(logSum / double(withSpeedup))) : nlohmann::json();
    j["speedup_samples"] = withSpeedup;
    j["failures"] = {{"by_status", byStatus}, {"by_reason", byReason}};
    return j;
}
} // namespace

double passAtK(int n, int c, int k)
{
    if (n <= 0)
        return 0.0;
    if (k > n)
        k = n;
    if (n - c < k)
        return 1.0;
    // 1 - C(n-c, k) / C(n, k) = 1 - prod_{i=n-c+1}^{n} (1 - k / i)
    double prod = 1.0;
    for (int i = n - c + 1; i <= n; ++i)
        prod *= 1.0 - double(k) / double(i);
    return 1.0 - prod;
}

nlohmann::json compareScopes(const Corpus &corpus, const SampleScope &a, const SampleScope &b)
{
    const db::Database &db = corpus.db();
    const ScopeFilter fa = resolveScope(db, a), fb = resolveScope(db, b);
    struct Side
    {
        int n = 0, c = 0;
    };
    std::map<std::int64_t, std::pair<Side, Side>> tasks;
    std::map<std::int64_t, std::string> names;
    {
        db::Statement t = db.prepare("SELECT id, name FROM tasks");
        while (t.step())
            if (fa.hasTask(t.int64(0)) || fb.hasTask(t.int64(0)))
                names[t.int64(0)] = t.text(1);
    }
    db::Statement st = db.prepare("SELECT id, task_id, status FROM samples ORDER BY id");
    while (st.step()) {
        const std::int64_t id = st.int64(0), task = st.int64(1);
        const std::string_view status = st.textView(2);
        if (isUnverifiedStatus(status))
            continue;
        const bool pass = isPassStatus(status);
        if (fa.hasSample(id) && fa.hasTask(task)) {
            ++tasks[task].first.n;
            tasks[task].first.c += pass;
        }
        if (fb.hasSample(id) && fb.hasTask(task)) {
            ++tasks[task].second.n;
            tasks[task].second.c += pass;
        }
    }
    auto rate = [](const Side &s) { return s.n ? nlohmann::json(double(s.c) / s.n) : nlohmann::json(); };
    nlohmann::json perTask = nlohmann::json::array();
    double sumA = 0, sumB = 0, pairedA = 0, pairedB = 0;
    int nA = 0, nB = 0, paired = 0, improved = 0, worse = 0, same = 0;
    // Tasks in name order; the task list's tasks without a sample still appear (n = 0).
    std::vector<std::pair<std::string, std::int64_t>> order;
    for (const auto &[id, name] : names)
        if ((!fa.allTasks && fa.hasTask(id)) || (!fb.allTasks && fb.hasTask(id)) || tasks.count(id))
            order.emplace_back(name, id);
    std::sort(order.begin(), order.end());
    for (const auto &[name, id] : order) {
        const auto &[sa, sb] = tasks[id];
        nlohmann::json row = {{"task", name},
                              {"a", {{"n", sa.n}, {"c", sa.c}, {"pass_at_1", rate(sa)}}},
                              {"b", {{"n", sb.n}, {"c", sb.c}, {"pass_at_1", rate(sb)}}}};
        if (sa.n) {
            sumA += double(sa.c) / sa.n;
            ++nA;
        }
        if (sb.n) {
            sumB += double(sb.c) / sb.n;
            ++nB;
        }
        if (sa.n && sb.n) {
            const double pa = double(sa.c) / sa.n, pb = double(sb.c) / sb.n;
            pairedA += pa;
            pairedB += pb;
            ++paired;
            row["delta"] = pb - pa;
            (pb > pa ? improved : pb < pa ? worse : same)++;
        } else {
            row["delta"] = nullptr;
        }
        perTask.push_back(std::move(row));
    }
    auto mean = [](double sum, int n) { return n ? nlohmann::json(sum / n) : nlohmann::json(); };
    nlohmann::json j;
    j["a"] = {{"scope", a.describe()}, {"tasks_verified", nA}, {"pass_at_1", mean(sumA, nA)}};
    j["b"] = {{"scope", b.describe()}, {"tasks_verified", nB}, {"pass_at_1", mean(sumB, nB)}};
    j["paired"] = {{"tasks", paired},
                   {"a_pass_at_1", mean(pairedA, paired)},
                   {"b_pass_at_1", mean(pairedB, paired)},
                   {"delta", paired ? nlohmann::json((pairedB - pairedA) / paired) : nlohmann::json()},
                   {"improved", improved},
                   {"worse", worse},
                   {"unchanged", same}};
    j["per_task"] = std::move(perTask);
    return j;
}

nlohmann::json judgeStats(const db::Database &db)
{
    nlohmann::json j;
    j["judged"] = db.queryInt("SELECT count(*) FROM judge_suggestions").value_or(0);
    j["by_verdict"] = countBy(db, "SELECT verdict, count(*) FROM judge_suggestions GROUP BY verdict ORDER BY verdict");
    // Judge x verifier over the judged samples that have a verdict: where a PASS is flagged (the judge says
    // torch or a library does the work, or it computes something else) and where a failing sample is said to
    // implement the operator.
    nlohmann::json table = nlohmann::json::object();
    std::int64_t passFlagged = 0, failImplements = 0, verified = 0, agree = 0;
    db::Statement st = db.prepare("SELECT j.verdict, s.status, count(*) FROM judge_suggestions j JOIN samples s ON "
                                  "s.id = j.sample_id GROUP BY j.verdict, s.status");
    while (st.step()) {
        const std::string verdict = st.text(0), status = st.text(1);
        const std::int64_t n = st.int64(2);
        const std::string side = isPassStatus(status) ? "pass" : isUnverifiedStatus(status) ? "unverified" : "fail";
        nlohmann::json &cell = table[verdict][side];
        cell = (cell.is_null() ? std::int64_t(0) : cell.get<std::int64_t>()) + n;
        if (side == "unverified" || verdict == "unsure" || verdict == "unparseable")
            continue;
        verified += n;
        const bool flagged = verdict == "delegates" || verdict == "wrong";
        if (side == "pass" && flagged)
            passFlagged += n;
        else if (side == "fail" && verdict == "implements")
            failImplements += n;
        else
            agree += n;
    }
    j["by_verdict_and_status"] = std::move(table);
    j["disagree"] = {{"pass_but_flagged", passFlagged}, {"fail_but_implements", failImplements}};
    j["agreement"] = verified > 0 ? nlohmann::json(double(agree) / double(verified)) : nlohmann::json();
    j["compared"] = verified;
    return j;
}

nlohmann::json corpusStats(const Corpus &corpus, const SampleScope &scope)
{
    const db::Database &db = corpus.db();
    const ScopeFilter filter = resolveScope(db, scope);
    nlohmann::json j;
    j["tasks"] = db.queryInt("SELECT count(*) FROM tasks").value_or(0);
    j["samples"] = db.queryInt("SELECT count(*) FROM samples").value_or(0);
    j["samples_without_answer"] = db.queryInt("SELECT count(*) FROM samples WHERE has_answer=0").value_or(0);
    j["by_status"] = countBy(db, "SELECT status, count(*) FROM samples GROUP BY status ORDER BY status");
    j["by_review"] = countBy(db, "SELECT review, count(*) FROM samples GROUP BY review ORDER BY review");
    j["by_backend"] = countBy(db, "SELECT backend, count(*) FROM samples GROUP BY backend ORDER BY backend");
    j["judge"] = judgeStats(db);
    j["by_category"] = countBy(db, "SELECT t.category, count(*) FROM samples s JOIN tasks t ON t.id=s.task_id "
                                   "GROUP BY t.category ORDER BY t.category");
    j["by_level"] = countBy(db, "SELECT CAST(t.level AS TEXT), count(*) FROM samples s JOIN tasks t "
                                "ON t.id=s.task_id GROUP BY t.level ORDER BY t.level");
    nlohmann::json perTask = nlohmann::json::array();
    db::Statement st =
        db.prepare("SELECT t.name, t.level, t.category, count(s.id), sum(s.status='PASS'), sum(s.status='PENDING') "
                   "FROM tasks t LEFT JOIN samples s ON s.task_id=t.id GROUP BY t.id ORDER BY t.name");
    while (st.step()) {
        perTask.push_back({{"task", st.text(0)},
                           {"level", st.isNull(1) ? nlohmann::json() : nlohmann::json(st.int64(1))},
                           {"category", st.isNull(2) ? nlohmann::json() : nlohmann::json(st.text(2))},
                           {"samples", st.int64(3)},
                           {"passed", st.int64(4)},
                           {"pending", st.int64(5)}});
    }
    j["per_task"] = std::move(perTask);

    // Verification metrics.
    std::unordered_map<std::int64_t, std::pair<std::string, std::string>> taskInfo; // category, level
    db::Statement ti = db.prepare("SELECT id, category, level FROM tasks");
    while (ti.step())
        taskInfo[ti.int64(0)] = {ti.isNull(1) ? "(none)" : ti.text(1), ti.isNull(2) ? "(none)" : ti.text(2)};
    std::unordered_map<std::int64_t, std::vector<std::string>> reasons;
    db::Statement vr = db.prepare("SELECT sample_id, reasons FROM verdicts WHERE id IN "
                                  "(SELECT max(id) FROM verdicts GROUP BY sample_id)");
    while (vr.step())
        if (!vr.isNull(1))
            reasons[vr.int64(0)] = parseReasons(vr.text(1));
    std::vector<SampleRow> rows;
    static const store::SampleColumns kColumns = {store::SampleColumn::Id, store::SampleColumn::TaskId,
                                                  store::SampleColumn::Model, store::SampleColumn::Status,
                                                  store::SampleColumn::Speedup};
    db::Statement sr = db.prepare("SELECT " + kColumns.selectList() + " FROM samples s ORDER BY id");
    while (sr.step()) {
        SampleRow r = kColumns.read(sr);
        if (!filter.hasSample(r.id) || !filter.hasTask(r.taskId))
            continue;
        if (!r.model)
            r.model = "(none)";
        const auto it = reasons.find(r.id);
        if (it != reasons.end())
            r.reasons = it->second;
        rows.push_back(std::move(r));
    }
    // Families (core/augment.h) that have variants: a task and its shape/dtype variants together.
    const std::map<std::int64_t, std::string> families = taskFamilies(db);
    std::map<std::string, int> familySize;
    for (const auto &[id, name] : families)
        ++familySize[name];
    std::vector<const SampleRow *> all;
    std::map<std::string, std::vector<const SampleRow *>> groups[4];
    for (const SampleRow &r : rows) {
        all.push_back(&r);
        const auto &info = taskInfo[r.taskId];
        groups[0][info.first].push_back(&r);
        groups[1][info.second].push_back(&r);
        groups[2][*r.model].push_back(&r);
        if (const auto f = families.find(r.taskId); f != families.end() && familySize[f->second] > 1)
            groups[3][f->second].push_back(&r);
    }
    j["scope"] = scope.describe();
    j["metrics"] = metrics(all);
    const char *names[4] = {"category", "level", "model", "family"};
    nlohmann::json per;
    for (int g = 0; g < 4; ++g) {
        nlohmann::json part = nlohmann::json::object();
        for (const auto &[key, list] : groups[g])
            part[key] = metrics(list);
        per[names[g]] = std::move(part);
    }
    j["metrics_by"] = std::move(per);
    return j;
}

} // namespace sieve
