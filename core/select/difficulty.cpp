#include "core/select/difficulty.h"

#include "core/db/database.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <stdexcept>

namespace sieve {

namespace {
// The distinct values of one column, joined for an error message ("none" when there are none).
std::string knownNames(const db::Database &db, const char *sql)
{
    std::string known;
    db::Statement st = db.prepare(sql);
    while (st.step())
        known += (known.empty() ? "" : ", ") + st.text(0);
    return known.empty() ? std::string("none") : known;
}
} // namespace

const char *difficultyName(Difficulty d)
{
    switch (d) {
    case Difficulty::Easy:
        return "easy";
    case Difficulty::Hard:
        return "hard";
    case Difficulty::Unsolved:
        return "unsolved";
    case Difficulty::Unknown:
        return "unknown";
    }
    return "unknown";
}

std::optional<Difficulty> parseDifficulty(std::string_view name)
{
    for (Difficulty d : {Difficulty::Easy, Difficulty::Hard, Difficulty::Unsolved, Difficulty::Unknown})
        if (name == difficultyName(d))
            return d;
    return std::nullopt;
}

bool isUnverifiedStatus(std::string_view status)
{
    return status == "PENDING" || status == "CANCELLED" || status == "UNVERIFIABLE";
}

std::string SampleScope::describe() const
{
    if (empty())
        return "all samples";
    std::string out;
    auto add = [&](const std::string &part) { out += (out.empty() ? "" : " ") + part; };
    if (model)
        add("model=" + *model);
    if (run)
        add("run=" + *run);
    if (tasks)
        add("tasks=" + std::to_string(tasks->size()));
    return out;
}

bool ScopeFilter::hasSample(std::int64_t id) const
{
    return all || std::binary_search(sampleIds.begin(), sampleIds.end(), id);
}
bool ScopeFilter::hasTask(std::int64_t id) const
{
    return allTasks || std::binary_search(taskIds.begin(), taskIds.end(), id);
}

ScopeFilter resolveScope(const db::Database &db, const SampleScope &scope)
{
    ScopeFilter f;
    if (scope.tasks) {
        f.allTasks = false;
        db::Statement t = db.prepare("SELECT id FROM tasks WHERE name=?1");
        for (const std::string &name : *scope.tasks) {
            t.reset();
            t.bind(1, name);
            if (!t.step())
                throw std::runtime_error("task list: no task named '" + name + "' in the corpus");
            f.taskIds.push_back(t.int64(0));
        }
        std::sort(f.taskIds.begin(), f.taskIds.end());
        f.taskIds.erase(std::unique(f.taskIds.begin(), f.taskIds.end()), f.taskIds.end());
    }
    if (!scope.model && !scope.run && !scope.tasks)
        return f;
    std::optional<std::int64_t> runId;
    if (scope.run) {
        db::Statement r = db.prepare("SELECT id FROM sample_runs WHERE name=?1");
        r.bind(1, *scope.run);
        if (r.step())
            runId = r.int64(0);
        else
            throw std::runtime_error("no sampling run named '" + *scope.run + "' in the corpus (runs: " +
                                     knownNames(db, "SELECT name FROM sample_runs ORDER BY name") + ")");
    }
    if (scope.model) {
        db::Statement m = db.prepare("SELECT 1 FROM samples WHERE model=?1 LIMIT 1");
        m.bind(1, *scope.model);
        if (!m.step())
            throw std::runtime_error(
                "no samples of model '" + *scope.model + "' in the corpus (models: " +
                knownNames(db, "SELECT DISTINCT model FROM samples WHERE model IS NOT NULL ORDER BY model") + ")");
    }
    f.all = false;
    std::string sql = "SELECT s.id, s.task_id FROM samples s WHERE 1";
    if (scope.model)
        sql += " AND s.model=?1";
    if (runId)
        sql += " AND s.id IN (SELECT sample_id FROM sample_run_items WHERE run_id=?2 AND sample_id IS NOT NULL)";
    sql += " ORDER BY s.id";
    db::Statement st = db.prepare(sql);
    if (scope.model)
        st.bind(1, *scope.model);
    if (runId)
        st.bind(2, *runId);
    while (st.step())
        if (f.hasTask(st.int64(1)))
            f.sampleIds.push_back(st.int64(0));
    return f;
}

std::vector<std::string> readTaskList(const std::string &path)
{
    std::ifstream in(path);
    if (!in)
        throw std::runtime_error("cannot read the task list '" + path + "'");
    std::vector<std::string> out;
    std::string line;
    while (std::getline(in, line)) {
        if (const auto hash = line.find('#'); hash != std::string::npos)
            line.resize(hash);
        const auto a = line.find_first_not_of(" \t\r"), b = line.find_last_not_of(" \t\r");
        if (a != std::string::npos)
            out.push_back(line.substr(a, b - a + 1));
    }
    return out;
}

std::vector<TaskDifficulty> taskDifficulties(const db::Database &db, const SampleScope &scope)
{
    const ScopeFilter filter = resolveScope(db, scope);
    std::vector<TaskDifficulty> tasks;
    std::map<std::int64_t, std::size_t> index;
    db::Statement t = db.prepare("SELECT id, name, level, category, backend, target FROM tasks ORDER BY id");
    while (t.step()) {
        if (!filter.hasTask(t.int64(0)))
            continue;
        TaskDifficulty d;
        d.taskId = t.int64(0);
        d.name = t.text(1);
        d.level = t.optInt64(2);
        if (!t.isNull(3))
            d.category = t.text(3);
        d.backend = t.text(4);
        if (!t.isNull(5))
            d.target = t.text(5);
        index[d.taskId] = tasks.size();
        tasks.push_back(std::move(d));
    }
    // Samples in attempt order within each task: numbered attempts first, then the rest by id.
    db::Statement s = db.prepare("SELECT task_id, status, attempt, id FROM samples "
                                 "ORDER BY task_id, attempt IS NULL, attempt, id");
    std::int64_t current = -1;
    int position = 0;
    std::optional<std::int64_t> firstAttempt;
    while (s.step()) {
        const std::int64_t taskId = s.int64(0);
        const auto it = index.find(taskId);
        if (it == index.end() || !filter.hasSample(s.int64(3)))
            continue;
        const std::optional<std::int64_t> attempt = s.optInt64(2);
        if (taskId != current) {
            current = taskId;
            position = 0;
            firstAttempt = attempt;
        }
        ++position;
        TaskDifficulty &d = tasks[it->second];
        ++d.samples;
        const std::string_view status = s.textView(1);
        if (isUnverifiedStatus(status))
            continue;
        ++d.verified;
        if (isPassStatus(status)) {
            ++d.passed;
            // Numbered attempts count from the task's first number (several samples may share one);
            // unnumbered ones by their place in the list.
            if (!d.attemptsToFirstPass)
                d.attemptsToFirstPass =
                    attempt && firstAttempt ? static_cast<int>(*attempt - *firstAttempt + 1) : position;
        }
    }
    for (TaskDifficulty &d : tasks) {
        if (d.attemptsToFirstPass)
            d.difficulty = *d.attemptsToFirstPass == 1 ? Difficulty::Easy : Difficulty::Hard;
        else
            d.difficulty = d.verified > 0 ? Difficulty::Unsolved : Difficulty::Unknown;
    }
    return tasks;
}

} // namespace sieve
